// Google Sheets API v4: https://developers.google.com/sheets/api/reference/rest
var google_api = lib('google_api');

var BASE = 'https://sheets.googleapis.com/v4/spreadsheets';
var API = 'Sheets';
// What sheets_metadata asks for when the caller names no fields: the structure, not the cells.
var DEFAULT_METADATA_FIELDS = 'spreadsheetId,spreadsheetUrl,properties,sheets(properties,merges,protectedRanges,basicFilter),namedRanges';

function _spreadsheetUrl(spreadsheetId) {
  return BASE + '/' + encodeURIComponent(spreadsheetId);
}

// A1 ranges go in the path: `Sheet1!A1:B2` -> `Sheet1!A1%3AB2`, `'My Sheet'!A1` -> `'My%20Sheet'!A1`.
function _valuesUrl(spreadsheetId, range) {
  return _spreadsheetUrl(spreadsheetId) + '/values/' + encodeURIComponent(range);
}

function _editUrl(spreadsheetId) {
  return 'https://docs.google.com/spreadsheets/d/' + spreadsheetId + '/edit';
}

function _sheetSummary(sheet) {
  var p = sheet.properties || {};
  var grid = p.gridProperties || {};
  var summary = { sheetId: p.sheetId || 0, title: p.title, index: p.index || 0, sheetType: p.sheetType || 'GRID' };
  if (grid.rowCount !== undefined) summary.rowCount = grid.rowCount;
  if (grid.columnCount !== undefined) summary.columnCount = grid.columnCount;
  if (grid.frozenRowCount) summary.frozenRowCount = grid.frozenRowCount;
  if (grid.frozenColumnCount) summary.frozenColumnCount = grid.frozenColumnCount;
  if (p.hidden) summary.hidden = true;
  return summary;
}

function _updateSummary(update) {
  return {
    spreadsheetId: update.spreadsheetId,
    updatedRange: update.updatedRange,
    updatedRows: update.updatedRows || 0,
    updatedColumns: update.updatedColumns || 0,
    updatedCells: update.updatedCells || 0,
  };
}

async function sheetsGet(params) {
  var sheet = await google_api.request(API, 'GET', _spreadsheetUrl(params.spreadsheet_id), {
    query: { fields: 'spreadsheetId,properties,sheets.properties' },
  });
  var props = sheet.properties || {};
  return {
    spreadsheetId: sheet.spreadsheetId,
    title: props.title,
    locale: props.locale,
    timeZone: props.timeZone,
    url: _editUrl(sheet.spreadsheetId),
    sheets: (sheet.sheets || []).map(_sheetSummary),
  };
}

async function sheetsReadValues(params) {
  var answer = await google_api.request(API, 'GET', _valuesUrl(params.spreadsheet_id, params.range));
  var values = answer.values || [];
  return { range: answer.range, majorDimension: answer.majorDimension || 'ROWS', rowCount: values.length, values: values };
}

async function sheetsWriteValues(params) {
  var answer = await google_api.request(API, 'PUT', _valuesUrl(params.spreadsheet_id, params.range), {
    query: { valueInputOption: params.value_input_option || 'USER_ENTERED' },
    body: { range: params.range, majorDimension: 'ROWS', values: params.values },
  });
  return _updateSummary(answer);
}

async function sheetsAppendValues(params) {
  var answer = await google_api.request(API, 'POST', _valuesUrl(params.spreadsheet_id, params.range) + ':append', {
    query: { valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' },
    body: { range: params.range, majorDimension: 'ROWS', values: params.values },
  });
  var summary = _updateSummary(answer.updates || {});
  summary.spreadsheetId = answer.spreadsheetId;
  if (answer.tableRange) summary.tableRange = answer.tableRange;
  return summary;
}

async function sheetsClearValues(params) {
  var answer = await google_api.request(API, 'POST', _valuesUrl(params.spreadsheet_id, params.range) + ':clear', { body: {} });
  return { spreadsheetId: answer.spreadsheetId, clearedRange: answer.clearedRange };
}

async function sheetsAddSheet(params) {
  var answer = await google_api.request(API, 'POST', _spreadsheetUrl(params.spreadsheet_id) + ':batchUpdate', {
    body: { requests: [{ addSheet: { properties: { title: params.title } } }] },
  });
  var added = answer.replies && answer.replies[0] && answer.replies[0].addSheet;
  var summary = _sheetSummary(added || { properties: { title: params.title } });
  summary.spreadsheetId = answer.spreadsheetId;
  return summary;
}

async function sheetsBatchUpdate(params) {
  var answer = await google_api.request(API, 'POST', _spreadsheetUrl(params.spreadsheet_id) + ':batchUpdate', {
    body: { requests: params.requests },
  });
  return { spreadsheetId: answer.spreadsheetId, replies: answer.replies || [] };
}

async function sheetsMetadata(params) {
  return google_api.request(API, 'GET', _spreadsheetUrl(params.spreadsheet_id), {
    query: { fields: params.fields || DEFAULT_METADATA_FIELDS },
  });
}

async function sheetsCreate(params) {
  var body = { properties: { title: params.title } };
  if (params.sheet_titles && params.sheet_titles.length > 0) {
    body.sheets = params.sheet_titles.map(function (title) {
      return { properties: { title: title } };
    });
  }
  var sheet = await google_api.request(API, 'POST', BASE, { body: body });
  return {
    spreadsheetId: sheet.spreadsheetId,
    title: sheet.properties && sheet.properties.title,
    url: sheet.spreadsheetUrl || _editUrl(sheet.spreadsheetId),
    sheets: (sheet.sheets || []).map(_sheetSummary),
  };
}
