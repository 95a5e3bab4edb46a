import { GoogleApiError, requireFields, type FakeGoogleApi, type GoogleRequest, type GoogleResponse } from '../fake-google-api';
import { batchRequests, enumQuery, isRecord, partialResponse, rejectUnknownFields, rejectUnknownQuery, requestKind, type FieldSchema } from './api-checks';

const HOST = 'sheets.googleapis.com';
const BASE = '/v4/spreadsheets';
const DEFAULT_ROWS = 1000;
const DEFAULT_COLUMNS = 26;
// Sheets' own ceiling on columns (ZZZ).
const MAX_COLUMNS = 18278;

type Json = Record<string, unknown>;
type Scalar = string | number | boolean;

export interface SheetCell {
  /** The effective value of a literal; undefined for an empty cell (or one with a formula). */
  value?: Scalar;
  /** `=SUM(A1:A3)` when the user entered a formula. */
  formula?: string;
  /** How the UI shows a number typed with a format (`1,234.5`, `12%`, `$5.00`, `2024-07-02`). */
  display?: string;
  /** The number is a date serial (days since 1899-12-30), typed as `2024-07-02`. */
  date?: boolean;
  /** `userEnteredFormat`, set by repeatCell. */
  format?: Json;
}

export interface SheetState {
  properties: Json & { sheetId: number; title: string; index: number; gridProperties: Json & { rowCount: number; columnCount: number } };
  /** Rows of cells, sparse: a missing row or cell is empty. */
  cells: (SheetCell | undefined)[][];
  merges: GridRange[];
}

export interface GridRange {
  sheetId?: number;
  startRowIndex?: number;
  endRowIndex?: number;
  startColumnIndex?: number;
  endColumnIndex?: number;
}

export interface SpreadsheetState {
  spreadsheetId: string;
  properties: Json & { title: string };
  sheets: SheetState[];
  namedRanges: { namedRangeId: string; name: string; range: GridRange }[];
}

export interface SheetsFake {
  readonly spreadsheets: Map<string, SpreadsheetState>;
  /** Ids of the seeded spreadsheets: `budget` ("Q3 Budget": Expenses with a SUM, Summary, named range Totals), `roster` ("Team Roster": 'Team Members'). */
  readonly seeded: { readonly budget: string; readonly roster: string };
  /** The formatted values of an A1 range as `values.get` returns them (trailing blanks trimmed). */
  read(spreadsheetId: string, range: string): string[][];
}

/** A resolved A1 range: rows r0..r1-1 and columns c0..c1-1 of one sheet. */
interface Area {
  sheet: SheetState;
  r0: number;
  c0: number;
  r1: number;
  c1: number;
  /** Where a write must stop: the range's explicit end row / column (exclusive), if it named one. */
  rowLimit?: number;
  colLimit?: number;
}

const SPREADSHEET_SCHEMA: FieldSchema = {
  spreadsheetId: true,
  properties: true,
  sheets: Object.fromEntries(
    [
      'properties',
      'data',
      'merges',
      'conditionalFormats',
      'filterViews',
      'protectedRanges',
      'basicFilter',
      'charts',
      'bandedRanges',
      'developerMetadata',
      'rowGroups',
      'columnGroups',
      'slicers',
      'tables',
    ].map((f) => [f, true as const]),
  ),
  namedRanges: true,
  spreadsheetUrl: true,
  developerMetadata: true,
  dataSources: true,
  dataSourceSchedules: true,
};

const VALUE_RENDER = ['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'] as const;
const DATE_RENDER = ['SERIAL_NUMBER', 'FORMATTED_STRING'] as const;
const DIMENSIONS = ['ROWS', 'COLUMNS'] as const;
const INPUT_OPTIONS = ['RAW', 'USER_ENTERED'] as const;
type ValueRender = (typeof VALUE_RENDER)[number];

/** Every request kind of spreadsheets.batchUpdate; the fake models some and accepts the rest with an empty reply. */
const REQUEST_KINDS = [
  'updateSpreadsheetProperties',
  'updateSheetProperties',
  'updateDimensionProperties',
  'updateNamedRange',
  'repeatCell',
  'addNamedRange',
  'deleteNamedRange',
  'addSheet',
  'deleteSheet',
  'autoFill',
  'cutPaste',
  'copyPaste',
  'mergeCells',
  'unmergeCells',
  'updateBorders',
  'updateCells',
  'addFilterView',
  'appendCells',
  'clearBasicFilter',
  'deleteDimension',
  'deleteEmbeddedObject',
  'deleteFilterView',
  'duplicateFilterView',
  'duplicateSheet',
  'findReplace',
  'insertDimension',
  'insertRange',
  'moveDimension',
  'updateEmbeddedObjectPosition',
  'pasteData',
  'textToColumns',
  'updateFilterView',
  'deleteRange',
  'appendDimension',
  'addConditionalFormatRule',
  'updateConditionalFormatRule',
  'deleteConditionalFormatRule',
  'sortRange',
  'setDataValidation',
  'setBasicFilter',
  'addProtectedRange',
  'updateProtectedRange',
  'deleteProtectedRange',
  'autoResizeDimensions',
  'addChart',
  'updateChartSpec',
  'updateBanding',
  'addBanding',
  'deleteBanding',
  'createDeveloperMetadata',
  'updateDeveloperMetadata',
  'deleteDeveloperMetadata',
  'randomizeRange',
  'addDimensionGroup',
  'deleteDimensionGroup',
  'updateDimensionGroup',
  'trimWhitespace',
  'deleteDuplicates',
  'updateEmbeddedObjectBorder',
  'addSlicer',
  'updateSlicerSpec',
  'addDataSource',
  'updateDataSource',
  'deleteDataSource',
  'refreshDataSource',
  'cancelDataSourceRefresh',
  'addTable',
  'updateTable',
  'deleteTable',
];

/**
 * A fake of the Google Sheets API v4 (https://developers.google.com/sheets/api/reference/rest), in
 * memory: spreadsheets with sheets, cells, merges and named ranges. A1 ranges in the path are
 * decoded and parsed as Sheets does (`Sheet1!A1:B2`, `'My Sheet'!A:C`, `Sheet1`, `A1:B2` on the
 * first sheet, named ranges); values.update requires `valueInputOption` and refuses data outside
 * the range or the grid; USER_ENTERED parses numbers, booleans and formulas (SUM, AVERAGE, MIN,
 * MAX, COUNT, COUNTA and arithmetic, recomputed on read; references are not moved when rows are
 * inserted); append finds the table in the range and inserts rows after its last non-empty row;
 * batchUpdate is atomic. Unknown query parameters and body fields are refused like Google does.
 */
export function registerSheetsRoutes(api: FakeGoogleApi): SheetsFake {
  const spreadsheets = new Map<string, SpreadsheetState>();
  let idCounter = 0;
  const newSpreadsheetId = (): string => {
    idCounter += 1;
    let seed = 0x2545f491 ^ (idCounter * 0x9e3779b1);
    let id = '1';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
    while (id.length < 44) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      id += alphabet[(seed >>> 16) % 64];
    }
    return id;
  };
  let sheetIdCounter = 0;
  const newSheetId = (): number => {
    sheetIdCounter += 1;
    return (sheetIdCounter * 1_103_515_245 + 12_345) % 2_000_000_000;
  };

  const find = (id: string): SpreadsheetState => {
    const found = spreadsheets.get(id);
    if (!found) throw new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
    return found;
  };

  const create = (title: string, sheetTitles: string[]): SpreadsheetState => {
    const spreadsheet: SpreadsheetState = {
      spreadsheetId: newSpreadsheetId(),
      properties: {
        title,
        locale: 'en_US',
        autoRecalc: 'ON_CHANGE',
        timeZone: 'Etc/GMT',
        defaultFormat: {
          backgroundColor: { red: 1, green: 1, blue: 1 },
          verticalAlignment: 'BOTTOM',
          wrapStrategy: 'OVERFLOW_CELL',
          textFormat: { fontFamily: 'arial', fontSize: 10 },
        },
      },
      sheets: [],
      namedRanges: [],
    };
    sheetTitles.forEach((sheetTitle, index) => spreadsheet.sheets.push(newSheet(index === 0 ? 0 : newSheetId(), sheetTitle, index)));
    spreadsheets.set(spreadsheet.spreadsheetId, spreadsheet);
    return spreadsheet;
  };

  // ---- seeds ----
  const budget = create('Q3 Budget', ['Expenses', 'Summary']);
  const expenses = budget.sheets[0] as SheetState;
  writeCells(
    expenses,
    0,
    0,
    [
      ['Date', 'Item', 'Amount'],
      ['2024-07-02', 'Office chairs', '1,250.00'],
      ['2024-07-15', 'Laptops', '3400'],
      ['2024-08-01', 'Coffee', '86.5'],
      ['', 'Total', '=SUM(C2:C4)'],
    ],
    'USER_ENTERED',
  );
  expenses.properties.gridProperties.frozenRowCount = 1;
  budget.namedRanges.push({ namedRangeId: 'nr_totals', name: 'Totals', range: { sheetId: 0, startRowIndex: 4, endRowIndex: 5, startColumnIndex: 1, endColumnIndex: 3 } });
  writeCells(
    budget.sheets[1] as SheetState,
    0,
    0,
    [
      ['Quarter', 'Q3'],
      ['Owner', 'finance@example.com'],
    ],
    'USER_ENTERED',
  );
  const roster = create('Team Roster', ['Team Members']);
  writeCells(
    roster.sheets[0] as SheetState,
    0,
    0,
    [
      ['Name', 'Role', 'Start'],
      ['Ada Lovelace', 'Engineer', '2021'],
      ['Grace Hopper', 'Admiral', '2019'],
    ],
    'USER_ENTERED',
  );

  const values = `${BASE}/{spreadsheetId}/values/{range}`;
  const json = (req: GoogleRequest, value: unknown, schema?: FieldSchema): GoogleResponse => ({ json: partialResponse(req, value, schema) });

  api.route('POST', HOST, BASE, (req) => {
    rejectUnknownQuery(req, []);
    const body = req.json();
    rejectUnknownFields(body, ['spreadsheetId', 'properties', 'sheets', 'namedRanges', 'spreadsheetUrl', 'developerMetadata', 'dataSources', 'dataSourceSchedules'], 'spreadsheet');
    const props = isRecord(body.properties) ? body.properties : {};
    const sheets = Array.isArray(body.sheets) ? body.sheets : [];
    const titles = sheets.map((sheet, i) => {
      const title = isRecord(sheet) && isRecord(sheet.properties) ? sheet.properties.title : undefined;
      if (title !== undefined && typeof title !== 'string') throw new GoogleApiError(400, `Invalid value at 'spreadsheet.sheets[${i}].properties.title'`);
      return title ?? `Sheet${i + 1}`;
    });
    titles.forEach((title, i) => {
      if (titles.indexOf(title) !== i)
        throw new GoogleApiError(400, `Invalid spreadsheet.sheets[${i}]: A sheet with the name "${title}" already exists. Please enter another name.`);
    });
    const title = typeof props.title === 'string' && props.title !== '' ? props.title : 'Untitled spreadsheet';
    const created = create(title, titles.length > 0 ? titles : ['Sheet1']);
    if (typeof props.locale === 'string') created.properties.locale = props.locale;
    if (typeof props.timeZone === 'string') created.properties.timeZone = props.timeZone;
    return json(req, renderSpreadsheet(created, false));
  });

  api.route('GET', HOST, `${BASE}/{spreadsheetId}`, (req) => {
    rejectUnknownQuery(req, ['ranges', 'includeGridData', 'excludeTablesInBandedRanges']);
    const spreadsheet = find(req.params.spreadsheetId as string);
    const ranges = req.query.getAll('ranges').map((range) => resolveRange(spreadsheet, range));
    return json(req, renderSpreadsheet(spreadsheet, req.query.get('includeGridData') === 'true', ranges), SPREADSHEET_SCHEMA);
  });

  api.route('GET', HOST, values, (req) => {
    rejectUnknownQuery(req, ['majorDimension', 'valueRenderOption', 'dateTimeRenderOption']);
    const spreadsheet = find(req.params.spreadsheetId as string);
    const area = checkGrid(resolveRange(spreadsheet, req.params.range as string));
    const dimension = enumQuery(req, 'majorDimension', DIMENSIONS, 'ROWS');
    const dates = enumQuery(req, 'dateTimeRenderOption', DATE_RENDER, 'SERIAL_NUMBER');
    const render = enumQuery(req, 'valueRenderOption', VALUE_RENDER, 'FORMATTED_VALUE');
    return json(req, valueRange(spreadsheet, area, dimension, render, dates));
  });

  api.route('PUT', HOST, values, (req) => {
    rejectUnknownQuery(req, ['valueInputOption', 'includeValuesInResponse', 'responseValueRenderOption', 'responseDateTimeRenderOption']);
    const spreadsheet = find(req.params.spreadsheetId as string);
    const input = requireInputOption(req);
    const body = req.json();
    const area = resolveRange(spreadsheet, req.params.range as string);
    const rows = bodyRows(spreadsheet, area, body);
    const update = writeArea(area, rows, input);
    return json(req, { spreadsheetId: spreadsheet.spreadsheetId, ...update, ...responseValues(req, spreadsheet, update) });
  });

  api.route('POST', HOST, `${values}:append`, (req) => {
    rejectUnknownQuery(req, ['valueInputOption', 'insertDataOption', 'includeValuesInResponse', 'responseValueRenderOption', 'responseDateTimeRenderOption']);
    const spreadsheet = find(req.params.spreadsheetId as string);
    const input = requireInputOption(req);
    const insert = enumQuery(req, 'insertDataOption', ['OVERWRITE', 'INSERT_ROWS'] as const, 'OVERWRITE');
    const body = req.json();
    const area = checkGrid(resolveRange(spreadsheet, req.params.range as string));
    const rows = bodyRows(spreadsheet, area, body);
    const { sheet } = area;
    // The table: the rows of the range, from its first row down to the last row with a value in its columns.
    const lastCol = area.colLimit ?? Math.max(area.c0 + 1, ...sheet.cells.map((row) => lastFilled(row ?? [])));
    let lastRow = -1;
    for (let r = area.r0; r < sheet.cells.length; r++) {
      if ((sheet.cells[r] ?? []).slice(area.c0, lastCol).some((cell) => hasValue(cell))) lastRow = r;
    }
    const tableEnd = Math.max(area.c0 + 1, ...sheet.cells.slice(area.r0, lastRow + 1).map((row) => Math.min(lastFilled(row ?? []), lastCol)));
    const at = lastRow < 0 ? area.r0 : lastRow + 1;
    const width = Math.max(0, ...rows.map((row) => row.length));
    const grid = sheet.properties.gridProperties;
    if (insert === 'INSERT_ROWS') {
      sheet.cells.splice(at, 0, ...rows.map(() => []));
      grid.rowCount += rows.length;
      shiftReferences(spreadsheet, sheet, true, at, rows.length);
    } else {
      grid.rowCount = Math.max(grid.rowCount, at + rows.length);
    }
    grid.columnCount = Math.max(grid.columnCount, area.c0 + width);
    const update = writeArea({ sheet, r0: at, c0: area.c0, r1: at + rows.length, c1: area.c0 + width }, rows, input);
    return json(req, {
      spreadsheetId: spreadsheet.spreadsheetId,
      ...(lastRow < 0 ? {} : { tableRange: a1(sheet, area.r0, area.c0, lastRow + 1, tableEnd) }),
      updates: { spreadsheetId: spreadsheet.spreadsheetId, ...update, ...responseValues(req, spreadsheet, update) },
    });
  });

  api.route('POST', HOST, `${values}:clear`, (req) => {
    rejectUnknownQuery(req, []);
    const spreadsheet = find(req.params.spreadsheetId as string);
    rejectUnknownFields(req.json(), [], 'clear_values_request');
    const area = checkGrid(resolveRange(spreadsheet, req.params.range as string));
    for (let r = area.r0; r < area.r1; r++) {
      const row = area.sheet.cells[r];
      for (let c = area.c0; row && c < Math.min(area.c1, row.length); c++) {
        const cell = row[c];
        row[c] = cell?.format ? { format: cell.format } : undefined;
      }
    }
    return json(req, { spreadsheetId: spreadsheet.spreadsheetId, clearedRange: a1(area.sheet, area.r0, area.c0, area.r1, area.c1) });
  });

  api.route('POST', HOST, `${BASE}/{spreadsheetId}:batchUpdate`, (req) => {
    rejectUnknownQuery(req, []);
    const spreadsheet = find(req.params.spreadsheetId as string);
    const body = req.json();
    rejectUnknownFields(body, ['requests', 'includeSpreadsheetInResponse', 'responseRanges', 'responseIncludeGridData'], 'batch_update_spreadsheet_request');
    const requests = batchRequests(body);
    // All or nothing: work on a copy and keep it only when every request applied.
    const draft = structuredClone(spreadsheet);
    const replies = requests.map((request, i) => applyRequest(draft, request, `requests[${i}]`, newSheetId));
    spreadsheets.set(draft.spreadsheetId, draft);
    return json(req, {
      spreadsheetId: draft.spreadsheetId,
      replies,
      ...(body.includeSpreadsheetInResponse === true ? { updatedSpreadsheet: renderSpreadsheet(draft, body.responseIncludeGridData === true) } : {}),
    });
  });

  return {
    spreadsheets,
    seeded: { budget: budget.spreadsheetId, roster: roster.spreadsheetId },
    read(spreadsheetId, range) {
      const spreadsheet = find(spreadsheetId);
      return (valueRange(spreadsheet, resolveRange(spreadsheet, range), 'ROWS', 'FORMATTED_VALUE').values ?? []) as string[][];
    },
  };
}

function newSheet(sheetId: number, title: string, index: number): SheetState {
  return { properties: { sheetId, title, index, sheetType: 'GRID', gridProperties: { rowCount: DEFAULT_ROWS, columnCount: DEFAULT_COLUMNS } }, cells: [], merges: [] };
}

function renderSpreadsheet(spreadsheet: SpreadsheetState, gridData: boolean, ranges: Area[] = []): Json {
  return {
    spreadsheetId: spreadsheet.spreadsheetId,
    properties: spreadsheet.properties,
    sheets: spreadsheet.sheets.map((sheet) => {
      const out: Json = { properties: sheet.properties };
      if (sheet.merges.length > 0) out.merges = sheet.merges;
      if (gridData) {
        const areas =
          ranges.length > 0
            ? ranges.filter((area) => area.sheet === sheet)
            : [{ sheet, r0: 0, c0: 0, r1: sheet.cells.length, c1: Math.max(0, ...sheet.cells.map((row) => (row ?? []).length)) }];
        out.data = areas.map((area) => gridDataOf(spreadsheet, area));
      }
      return out;
    }),
    ...(spreadsheet.namedRanges.length > 0 ? { namedRanges: spreadsheet.namedRanges } : {}),
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${spreadsheet.spreadsheetId}/edit`,
  };
}

function gridDataOf(spreadsheet: SpreadsheetState, area: Area): Json {
  const rowData = [];
  for (let r = area.r0; r < Math.min(area.r1, area.sheet.cells.length); r++) {
    const row = area.sheet.cells[r] ?? [];
    const cells = [];
    for (let c = area.c0; c < Math.min(area.c1, row.length); c++) {
      const cell = row[c];
      if (!cell) {
        cells.push({});
        continue;
      }
      const out: Json = {};
      if (cell.formula !== undefined) out.userEnteredValue = { formulaValue: cell.formula };
      else if (cell.value !== undefined) out.userEnteredValue = typedValue(cell.value);
      const effective = evaluate(spreadsheet, area.sheet, r, c, []);
      if (effective !== undefined) {
        out.effectiveValue = typedValue(effective);
        out.formattedValue = format(effective, cell);
      }
      if (cell.format) out.userEnteredFormat = cell.format;
      cells.push(out);
    }
    rowData.push(cells.length > 0 ? { values: cells } : {});
  }
  return { ...(area.r0 ? { startRow: area.r0 } : {}), ...(area.c0 ? { startColumn: area.c0 } : {}), rowData };
}

function typedValue(value: Scalar): Json {
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (cellIsError(value)) return { errorValue: { type: 'ERROR', message: value } };
  return { stringValue: value };
}

// ---- A1 ranges ------------------------------------------------------------------------------

const A1_PART = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/;

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function quoteTitle(title: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`;
}

/** `Sheet1!A1:B2` for rows r0..r1-1 and columns c0..c1-1 (a single cell is `Sheet1!A1`). */
function a1(sheet: SheetState, r0: number, c0: number, r1: number, c1: number): string {
  const start = `${columnLetters(c0)}${r0 + 1}`;
  const end = `${columnLetters(c1 - 1)}${r1}`;
  return `${quoteTitle(sheet.properties.title)}!${start === end ? start : `${start}:${end}`}`;
}

function unparsable(range: string): GoogleApiError {
  return new GoogleApiError(400, `Unable to parse range: ${range}`);
}

/** Parses an A1 range the way Sheets does, against the spreadsheet's sheets and named ranges. */
function resolveRange(spreadsheet: SpreadsheetState, range: string): Area {
  let title: string | undefined;
  let cells: string | undefined;
  const quoted = /^'((?:[^']|'')+)'(?:!(.*))?$/s.exec(range);
  if (quoted) {
    title = (quoted[1] as string).replace(/''/g, "'");
    cells = quoted[2];
  } else if (range.includes('!')) {
    title = range.slice(0, range.indexOf('!'));
    cells = range.slice(range.indexOf('!') + 1);
  } else {
    const named = spreadsheet.sheets.find((sheet) => sheet.properties.title === range);
    if (named) title = range;
    else {
      const namedRange = spreadsheet.namedRanges.find((n) => n.name === range);
      if (namedRange) return gridArea(spreadsheet, namedRange.range, range);
      cells = range;
    }
  }
  const sheet =
    title === undefined
      ? [...spreadsheet.sheets].sort((a, b) => a.properties.index - b.properties.index).find((s) => !s.properties.hidden)
      : spreadsheet.sheets.find((s) => s.properties.title === title);
  if (!sheet) throw unparsable(range);
  const grid = sheet.properties.gridProperties;
  if (cells === undefined || cells === '') return { sheet, r0: 0, c0: 0, r1: grid.rowCount, c1: grid.columnCount };
  const [startText, endText, extra] = cells.split(':');
  if (extra !== undefined || startText === undefined) throw unparsable(range);
  const start = A1_PART.exec(startText);
  const end = endText === undefined ? undefined : A1_PART.exec(endText);
  if (!start || (endText !== undefined && !end) || (!start[1] && !start[2])) throw unparsable(range);
  const startCol = start[1] === undefined ? undefined : columnIndex(start[1]);
  const startRow = start[2] === undefined ? undefined : Number(start[2]) - 1;
  if (startRow !== undefined && startRow < 0) throw unparsable(range);
  if (!end) {
    // A single cell: `A1`. `A` or `1` alone is not a range.
    if (startCol === undefined || startRow === undefined) throw unparsable(range);
    return { sheet, r0: startRow, c0: startCol, r1: startRow + 1, c1: startCol + 1 };
  }
  const endCol = end[1] === undefined ? undefined : columnIndex(end[1]);
  const endRow = end[2] === undefined ? undefined : Number(end[2]) - 1;
  if ((!end[1] && !end[2]) || (endRow !== undefined && endRow < 0)) throw unparsable(range);
  // `A:B` needs columns on both sides and `1:2` rows on both sides; `A2:C` and `A2:5` are open-ended.
  if ((startCol === undefined && endCol !== undefined) || (startRow === undefined && endRow !== undefined)) throw unparsable(range);
  const c0 = Math.min(startCol ?? 0, endCol ?? Infinity);
  const c1 = endCol === undefined ? grid.columnCount : Math.max(startCol ?? 0, endCol) + 1;
  const r0 = Math.min(startRow ?? 0, endRow ?? Infinity);
  const r1 = endRow === undefined ? grid.rowCount : Math.max(startRow ?? 0, endRow) + 1;
  return { sheet, r0, c0, r1, c1, ...(endRow === undefined ? {} : { rowLimit: r1 }), ...(endCol === undefined ? {} : { colLimit: c1 }) };
}

function gridArea(spreadsheet: SpreadsheetState, range: GridRange, where: string): Area {
  const sheet = spreadsheet.sheets.find((s) => s.properties.sheetId === (range.sheetId ?? 0));
  if (!sheet) throw new GoogleApiError(400, `Invalid ${where}: No grid with id: ${range.sheetId ?? 0}`);
  const grid = sheet.properties.gridProperties;
  const r1 = range.endRowIndex ?? grid.rowCount;
  const c1 = range.endColumnIndex ?? grid.columnCount;
  return { sheet, r0: range.startRowIndex ?? 0, c0: range.startColumnIndex ?? 0, r1, c1, rowLimit: r1, colLimit: c1 };
}

function checkGrid(area: Area): Area {
  const grid = area.sheet.properties.gridProperties;
  if (area.r1 > grid.rowCount || area.c1 > grid.columnCount) {
    throw new GoogleApiError(
      400,
      `Range (${a1(area.sheet, area.r0, area.c0, area.r1, area.c1)}) exceeds grid limits. Max rows: ${grid.rowCount}, max columns: ${grid.columnCount}`,
    );
  }
  return area;
}

// ---- values ---------------------------------------------------------------------------------

function requireInputOption(req: GoogleRequest): (typeof INPUT_OPTIONS)[number] {
  if (!req.query.has('valueInputOption')) throw new GoogleApiError(400, "'valueInputOption' is required but not specified");
  return enumQuery(req, 'valueInputOption', INPUT_OPTIONS, 'RAW');
}

/** The body of values.update / append: a ValueRange whose range (if given) is the path's. */
function bodyRows(spreadsheet: SpreadsheetState, area: Area, body: Json): unknown[][] {
  rejectUnknownFields(body, ['range', 'majorDimension', 'values'], 'data');
  if (body.range !== undefined) {
    const inBody = resolveRange(spreadsheet, String(body.range));
    if (inBody.sheet !== area.sheet || inBody.r0 !== area.r0 || inBody.c0 !== area.c0 || inBody.r1 !== area.r1 || inBody.c1 !== area.c1) {
      throw new GoogleApiError(400, `Requested range [${a1(area.sheet, area.r0, area.c0, area.r1, area.c1)}] must match the range in the request body [${String(body.range)}].`);
    }
  }
  const dimension = body.majorDimension ?? 'ROWS';
  if (!(DIMENSIONS as readonly unknown[]).includes(dimension)) throw new GoogleApiError(400, `Invalid value at 'data.major_dimension', "${String(dimension)}"`);
  const rows = body.values ?? [];
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) throw new GoogleApiError(400, "Invalid value at 'data.values': each element must be a list of values.");
  rows.forEach((row: unknown[], i) =>
    row.forEach((value, j) => {
      if (value !== null && typeof value === 'object')
        throw new GoogleApiError(400, `Invalid values[${i}][${j}]: ${Array.isArray(value) ? 'list_value' : 'struct_value'} ${JSON.stringify(value)}`);
    }),
  );
  return dimension === 'COLUMNS' ? transpose(rows as unknown[][]) : (rows as unknown[][]);
}

function transpose<T>(rows: T[][]): T[][] {
  const out: T[][] = [];
  rows.forEach((row, r) => row.forEach((value, c) => ((out[c] ??= [])[r] = value)));
  return out.map((row) => Array.from(row, (v) => v as T));
}

interface UpdateResult {
  updatedRange?: string;
  updatedRows?: number;
  updatedColumns?: number;
  updatedCells?: number;
}

/** Writes rows at the area's top-left corner, within its explicit bounds and the sheet's grid. */
function writeArea(area: Area, rows: unknown[][], input: string): UpdateResult {
  const height = rows.length;
  const width = Math.max(0, ...rows.map((row) => row.length));
  const written = a1(area.sheet, area.r0, area.c0, area.r1, area.c1);
  if (area.rowLimit !== undefined && area.r0 + height > area.rowLimit) {
    throw new GoogleApiError(400, `Requested writing within range [${written}], but tried writing to row [${area.rowLimit + 1}]`);
  }
  if (area.colLimit !== undefined && area.c0 + width > area.colLimit) {
    throw new GoogleApiError(400, `Requested writing within range [${written}], but tried writing to column [${columnLetters(area.colLimit)}]`);
  }
  if (height === 0 || width === 0) return {};
  checkGrid({ sheet: area.sheet, r0: area.r0, c0: area.c0, r1: area.r0 + height, c1: area.c0 + width });
  return writeCells(area.sheet, area.r0, area.c0, rows, input);
}

function writeCells(sheet: SheetState, r0: number, c0: number, rows: unknown[][], input: string): UpdateResult {
  const rowsTouched = new Set<number>();
  const colsTouched = new Set<number>();
  let cells = 0;
  let width = 0;
  rows.forEach((row, i) => {
    width = Math.max(width, row.length);
    row.forEach((value, j) => {
      if (value === null || value === undefined) return;
      const target = (sheet.cells[r0 + i] ??= []);
      const format = target[c0 + j]?.format;
      const cell = parseInput(value as Scalar, input);
      target[c0 + j] = cell || format ? { ...cell, ...(format ? { format } : {}) } : undefined;
      rowsTouched.add(i);
      colsTouched.add(j);
      cells += 1;
    });
  });
  return { updatedRange: a1(sheet, r0, c0, r0 + rows.length, c0 + width), updatedRows: rowsTouched.size, updatedColumns: colsTouched.size, updatedCells: cells };
}

/** A value as typed (USER_ENTERED) or stored as it is (RAW); '' empties the cell. */
function parseInput(value: Scalar, input: string): SheetCell | undefined {
  if (value === '') return undefined;
  if (typeof value !== 'string' || input === 'RAW') return { value };
  const text = value.trim();
  if (value.startsWith("'")) return { value: value.slice(1) };
  if (value.startsWith('=') && value.length > 1) return { formula: value };
  if (/^(true|false)$/i.test(text)) return { value: text.toLowerCase() === 'true' };
  const date = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (date) {
    const time = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    if (new Date(time).getUTCDate() === Number(date[3])) return { value: (time - Date.UTC(1899, 11, 30)) / 86_400_000, display: text, date: true };
  }
  const number = /^([+-]?)(\$?)((?:\d{1,3}(?:,\d{3})+|\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(%?)$/.exec(text);
  if (number && /\d/.test(number[3] as string)) {
    const [, sign, currency, digits, percent] = number as unknown as string[];
    const n = Number(`${sign}${(digits as string).replace(/,/g, '')}`) / (percent ? 100 : 1);
    if (currency) return { value: n, display: `${sign === '-' ? '-' : ''}$${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` };
    if (percent || (digits as string).includes(',')) return { value: n, display: text.replace(/^\+/, '') };
    return { value: n };
  }
  return { value };
}

function hasValue(cell: SheetCell | undefined): boolean {
  return cell !== undefined && (cell.value !== undefined || cell.formula !== undefined);
}

function lastFilled(row: (SheetCell | undefined)[]): number {
  for (let c = row.length; c > 0; c--) if (hasValue(row[c - 1])) return c;
  return 0;
}

function valueRange(spreadsheet: SpreadsheetState, area: Area, dimension: string, render: ValueRender, dates = 'SERIAL_NUMBER'): Json {
  let rows: Scalar[][] = [];
  for (let r = area.r0; r < Math.min(area.r1, area.sheet.cells.length); r++) {
    const row = area.sheet.cells[r] ?? [];
    const out: Scalar[] = [];
    for (let c = area.c0; c < Math.min(area.c1, row.length); c++) out.push(renderCell(spreadsheet, area.sheet, r, c, render, dates));
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    rows.push(out);
  }
  while (rows.length > 0 && (rows[rows.length - 1] as Scalar[]).length === 0) rows.pop();
  if (dimension === 'COLUMNS') rows = transpose(rows).map((column) => Array.from(column, (v) => v ?? ''));
  return { range: a1(area.sheet, area.r0, area.c0, area.r1, area.c1), majorDimension: dimension, ...(rows.length > 0 ? { values: rows } : {}) };
}

function responseValues(req: GoogleRequest, spreadsheet: SpreadsheetState, update: UpdateResult): Json {
  if (req.query.get('includeValuesInResponse') !== 'true' || update.updatedRange === undefined) return {};
  const render = enumQuery(req, 'responseValueRenderOption', VALUE_RENDER, 'FORMATTED_VALUE');
  const dates = enumQuery(req, 'responseDateTimeRenderOption', DATE_RENDER, 'SERIAL_NUMBER');
  return { updatedData: valueRange(spreadsheet, resolveRange(spreadsheet, update.updatedRange), 'ROWS', render, dates) };
}

function renderCell(spreadsheet: SpreadsheetState, sheet: SheetState, r: number, c: number, render: ValueRender, dates: string): Scalar {
  const cell = sheet.cells[r]?.[c];
  if (!cell || !hasValue(cell)) return '';
  if (render === 'FORMULA' && cell.formula !== undefined) return cell.formula;
  if (cell.date && dates === 'FORMATTED_STRING' && cell.display !== undefined) return cell.display;
  const value = evaluate(spreadsheet, sheet, r, c, []) ?? '';
  return render === 'FORMATTED_VALUE' ? format(value, cell) : value;
}

function format(value: Scalar, cell: SheetCell): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  const numberFormat = isRecord(cell.format?.numberFormat) ? cell.format.numberFormat : undefined;
  if (numberFormat) return formatPattern(value, String(numberFormat.type ?? 'NUMBER'), typeof numberFormat.pattern === 'string' ? numberFormat.pattern : undefined);
  if (cell.display !== undefined && cell.formula === undefined) return cell.display;
  return plainNumber(value);
}

function plainNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
}

/** The number-format patterns agents use: `#,##0.00`, `$#,##0`, `0.0%`, `0`. */
function formatPattern(value: number, type: string, pattern: string | undefined): string {
  const defaults: Record<string, string> = { NUMBER: '#,##0.00', CURRENCY: '$#,##0.00', PERCENT: '0.00%', SCIENTIFIC: '0.00E+00' };
  const chosen = pattern ?? defaults[type];
  if (!chosen || type === 'TEXT') return plainNumber(value);
  const body = /[#0,.]+/.exec(chosen);
  if (!body) return chosen;
  const percent = chosen.includes('%');
  const decimals = (body[0].split('.')[1] ?? '').length;
  const shown = Math.abs(percent ? value * 100 : value).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: body[0].includes(','),
  });
  return `${value < 0 ? '-' : ''}${chosen.slice(0, body.index)}${shown}${chosen.slice(body.index + body[0].length)}`;
}

// ---- formulas -------------------------------------------------------------------------------

type FormulaValue = Scalar | Scalar[];

/** A cell or range reference in a formula, optionally on another sheet: `A1`, `$B$2:C9`, `'My Sheet'!A1`. */
const REFERENCE = String.raw`(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?`;

const FORMULA_ERRORS = new Set(['#ERROR!', '#REF!', '#NAME?', '#VALUE!', '#DIV/0!', '#N/A', '#NUM!', '#NULL!']);

class FormulaError extends Error {}

/** The effective value of a cell; formulas are computed now (a cycle is `#REF!`). */
function evaluate(spreadsheet: SpreadsheetState, sheet: SheetState, r: number, c: number, stack: string[]): Scalar | undefined {
  const cell = sheet.cells[r]?.[c];
  if (!cell || cell.formula === undefined) return cell?.value;
  const key = `${sheet.properties.sheetId}:${r}:${c}`;
  if (stack.includes(key)) return '#REF!';
  try {
    const result = new FormulaParser(cell.formula.slice(1), (ref) => lookup(spreadsheet, sheet, ref, [...stack, key])).parse();
    return Array.isArray(result) ? (result[0] ?? '') : result;
  } catch (error) {
    // A reference to a sheet that does not exist is Sheets' #REF!.
    return error instanceof FormulaError ? error.message : '#REF!';
  }
}

function lookup(spreadsheet: SpreadsheetState, sheet: SheetState, ref: string, stack: string[]): Scalar[] {
  const area = resolveRange(spreadsheet, ref.includes('!') ? ref : `${quoteTitle(sheet.properties.title)}!${ref}`);
  const out: Scalar[] = [];
  for (let r = area.r0; r < Math.min(area.r1, area.sheet.cells.length); r++) {
    for (let c = area.c0; c < area.c1; c++) {
      const value = evaluate(spreadsheet, area.sheet, r, c, stack);
      if (typeof value === 'string' && FORMULA_ERRORS.has(value)) throw new FormulaError(value);
      if (value !== undefined) out.push(value);
    }
  }
  return out;
}

const FUNCTIONS: Record<string, (values: Scalar[]) => Scalar> = {
  SUM: (v) => numbers(v).reduce((a, b) => a + b, 0),
  AVERAGE: (v) => {
    const n = numbers(v);
    if (n.length === 0) throw new FormulaError('#DIV/0!');
    return n.reduce((a, b) => a + b, 0) / n.length;
  },
  MIN: (v) => (numbers(v).length ? Math.min(...numbers(v)) : 0),
  MAX: (v) => (numbers(v).length ? Math.max(...numbers(v)) : 0),
  COUNT: (v) => numbers(v).length,
  COUNTA: (v) => v.filter((x) => x !== '').length,
};

function numbers(values: Scalar[]): number[] {
  return values.filter((v): v is number => typeof v === 'number');
}

/** A small recursive-descent parser: + - * / &, parentheses, numbers, strings, references, functions. */
class FormulaParser {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly ref: (a1: string) => Scalar[],
  ) {}

  parse(): FormulaValue {
    const value = this.concat();
    this.space();
    if (this.at !== this.text.length) throw new FormulaError('#ERROR!');
    return value;
  }

  private space(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  private eat(token: string): boolean {
    this.space();
    if (this.text.startsWith(token, this.at)) {
      this.at += token.length;
      return true;
    }
    return false;
  }

  private concat(): FormulaValue {
    let left = this.sum();
    while (this.eat('&')) left = `${scalar(left)}${scalar(this.sum())}`;
    return left;
  }

  private sum(): FormulaValue {
    let left = this.product();
    for (;;) {
      if (this.eat('+')) left = num(left) + num(this.product());
      else if (this.eat('-')) left = num(left) - num(this.product());
      else return left;
    }
  }

  private product(): FormulaValue {
    let left = this.unary();
    for (;;) {
      if (this.eat('*')) left = num(left) * num(this.unary());
      else if (this.eat('/')) {
        const divisor = num(this.unary());
        if (divisor === 0) throw new FormulaError('#DIV/0!');
        left = num(left) / divisor;
      } else return left;
    }
  }

  private unary(): FormulaValue {
    if (this.eat('-')) return -num(this.unary());
    if (this.eat('+')) return num(this.unary());
    return this.atom();
  }

  private atom(): FormulaValue {
    this.space();
    const rest = this.text.slice(this.at);
    let m: RegExpExecArray | null;
    if (this.eat('(')) {
      const value = this.concat();
      if (!this.eat(')')) throw new FormulaError('#ERROR!');
      return value;
    }
    if ((m = /^(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)/.exec(rest))) {
      this.at += m[0].length;
      return Number(m[0]);
    }
    if ((m = /^"((?:[^"]|"")*)"/.exec(rest))) {
      this.at += m[0].length;
      return (m[1] as string).replace(/""/g, '"');
    }
    if ((m = /^([A-Za-z][A-Za-z0-9.]*)\s*\(/.exec(rest))) {
      this.at += m[0].length;
      const args: Scalar[] = [];
      if (!this.eat(')')) {
        do {
          const arg = this.concat();
          args.push(...(Array.isArray(arg) ? arg : [arg]));
        } while (this.eat(','));
        if (!this.eat(')')) throw new FormulaError('#ERROR!');
      }
      const fn = FUNCTIONS[(m[1] as string).toUpperCase()];
      if (!fn) throw new FormulaError('#NAME?');
      return fn(args);
    }
    if ((m = /^(TRUE|FALSE)\b(?!\s*[(!])/i.exec(rest))) {
      this.at += m[0].length;
      return m[0].toUpperCase() === 'TRUE';
    }
    if ((m = new RegExp(`^${REFERENCE}`).exec(rest))) {
      this.at += m[0].length;
      const values = this.ref(m[0].replace(/\$/g, ''));
      return m[0].includes(':') ? values : (values[0] ?? 0);
    }
    throw new FormulaError('#ERROR!');
  }
}

function cellIsError(value: string): boolean {
  return FORMULA_ERRORS.has(value);
}

function scalar(value: FormulaValue): Scalar {
  return Array.isArray(value) ? (value[0] ?? '') : value;
}

function num(value: FormulaValue): number {
  const v = scalar(value);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === '') return 0;
  const n = Number(v);
  if (Number.isNaN(n)) throw new FormulaError('#VALUE!');
  return n;
}

// ---- batchUpdate ----------------------------------------------------------------------------

function applyRequest(spreadsheet: SpreadsheetState, request: unknown, where: string, newSheetId: () => number): Json {
  const { kind, body, at } = requestKind(request, where, REQUEST_KINDS);
  const sheetById = (sheetId: unknown): SheetState => {
    const sheet = spreadsheet.sheets.find((s) => s.properties.sheetId === (sheetId ?? 0));
    if (!sheet) throw new GoogleApiError(400, `Invalid ${at}: No grid with id: ${String(sheetId ?? 0)}`);
    return sheet;
  };
  const reindex = (): void => {
    spreadsheet.sheets.sort((a, b) => a.properties.index - b.properties.index).forEach((sheet, i) => (sheet.properties.index = i));
  };
  const uniqueTitle = (title: string, except?: SheetState): void => {
    if (spreadsheet.sheets.some((s) => s !== except && s.properties.title.toLowerCase() === title.toLowerCase())) {
      throw new GoogleApiError(400, `Invalid ${at}: A sheet with the name "${title}" already exists. Please enter another name.`);
    }
  };

  switch (kind) {
    case 'addSheet': {
      const props = isRecord(body.properties) ? body.properties : {};
      let n = spreadsheet.sheets.length + 1;
      while (spreadsheet.sheets.some((s) => s.properties.title === `Sheet${n}`)) n++;
      const title = typeof props.title === 'string' && props.title !== '' ? props.title : `Sheet${n}`;
      uniqueTitle(title);
      const sheetId = typeof props.sheetId === 'number' ? props.sheetId : newSheetId();
      if (spreadsheet.sheets.some((s) => s.properties.sheetId === sheetId)) throw new GoogleApiError(400, `Invalid ${at}: Sheet with id ${sheetId} already exists.`);
      const index = typeof props.index === 'number' ? Math.min(props.index, spreadsheet.sheets.length) : spreadsheet.sheets.length;
      const sheet = newSheet(sheetId, title, index);
      const grid = isRecord(props.gridProperties) ? props.gridProperties : {};
      Object.assign(sheet.properties.gridProperties, grid);
      for (const [key, value] of Object.entries(props)) if (!['sheetId', 'title', 'index', 'gridProperties'].includes(key)) sheet.properties[key] = value;
      spreadsheet.sheets.forEach((s) => s.properties.index >= index && (s.properties.index += 1));
      spreadsheet.sheets.push(sheet);
      reindex();
      return { addSheet: { properties: sheet.properties } };
    }
    case 'deleteSheet': {
      const sheet = sheetById(body.sheetId);
      if (spreadsheet.sheets.length === 1) throw new GoogleApiError(400, `Invalid ${at}: You can't remove all the sheets in a document.`);
      spreadsheet.sheets.splice(spreadsheet.sheets.indexOf(sheet), 1);
      spreadsheet.namedRanges = spreadsheet.namedRanges.filter((n) => (n.range.sheetId ?? 0) !== sheet.properties.sheetId);
      reindex();
      return {};
    }
    case 'duplicateSheet': {
      const source = sheetById(body.sourceSheetId);
      const title = typeof body.newSheetName === 'string' ? body.newSheetName : `Copy of ${source.properties.title}`;
      uniqueTitle(title);
      const copy: SheetState = structuredClone(source);
      copy.properties.sheetId = typeof body.newSheetId === 'number' ? body.newSheetId : newSheetId();
      copy.properties.title = title;
      const index = typeof body.insertSheetIndex === 'number' ? body.insertSheetIndex : source.properties.index + 1;
      spreadsheet.sheets.forEach((s) => s.properties.index >= index && (s.properties.index += 1));
      copy.properties.index = index;
      spreadsheet.sheets.push(copy);
      reindex();
      return { duplicateSheet: { properties: copy.properties } };
    }
    case 'updateSheetProperties': {
      requireFields(body, ['properties', 'fields'], at);
      const props = body.properties as Json;
      const sheet = sheetById(props.sheetId);
      if (typeof props.title === 'string' && fieldSelected(String(body.fields), 'title')) uniqueTitle(props.title, sheet);
      applyFields(sheet.properties, props, String(body.fields), at);
      if (fieldSelected(String(body.fields), 'index')) {
        const index = Number(props.index ?? 0);
        spreadsheet.sheets.splice(spreadsheet.sheets.indexOf(sheet), 1);
        spreadsheet.sheets.sort((a, b) => a.properties.index - b.properties.index).splice(index, 0, sheet);
        spreadsheet.sheets.forEach((s, i) => (s.properties.index = i));
      }
      return {};
    }
    case 'updateSpreadsheetProperties': {
      requireFields(body, ['properties', 'fields'], at);
      applyFields(spreadsheet.properties, body.properties as Json, String(body.fields), at);
      return {};
    }
    case 'repeatCell': {
      requireFields(body, ['range', 'fields'], at);
      const area = gridArea(spreadsheet, body.range as GridRange, at);
      const cell = isRecord(body.cell) ? body.cell : {};
      const fields = String(body.fields);
      for (let r = area.r0; r < area.r1; r++) {
        for (let c = area.c0; c < area.c1; c++) {
          const row = (area.sheet.cells[r] ??= []);
          const current: SheetCell = { ...row[c] };
          if (fieldSelected(fields, 'userEnteredFormat')) {
            const target: Json = structuredClone(current.format ?? {});
            applyFields(target, isRecord(cell.userEnteredFormat) ? cell.userEnteredFormat : {}, subFields(fields, 'userEnteredFormat'), at);
            current.format = target;
          }
          if (fieldSelected(fields, 'userEnteredValue')) {
            const entered = isRecord(cell.userEnteredValue) ? cell.userEnteredValue : {};
            const value = entered.formulaValue ?? entered.stringValue ?? entered.numberValue ?? entered.boolValue;
            delete current.value;
            delete current.formula;
            delete current.display;
            if (value !== undefined) Object.assign(current, entered.formulaValue !== undefined ? { formula: String(value) } : { value: value as Scalar });
          }
          row[c] = current;
        }
      }
      return {};
    }
    case 'mergeCells':
    case 'unmergeCells': {
      requireFields(body, ['range'], at);
      const area = gridArea(spreadsheet, body.range as GridRange, at);
      const range: GridRange = { sheetId: area.sheet.properties.sheetId, startRowIndex: area.r0, endRowIndex: area.r1, startColumnIndex: area.c0, endColumnIndex: area.c1 };
      const overlaps = (m: GridRange): boolean =>
        (m.startRowIndex ?? 0) < area.r1 && area.r0 < (m.endRowIndex ?? 0) && (m.startColumnIndex ?? 0) < area.c1 && area.c0 < (m.endColumnIndex ?? 0);
      if (kind === 'unmergeCells') {
        area.sheet.merges = area.sheet.merges.filter((m) => !overlaps(m));
        return {};
      }
      const mergeType = body.mergeType ?? 'MERGE_ALL';
      if (!['MERGE_ALL', 'MERGE_COLUMNS', 'MERGE_ROWS'].includes(String(mergeType))) throw new GoogleApiError(400, `Invalid value at '${at}.merge_type', "${String(mergeType)}"`);
      if (area.sheet.merges.some(overlaps)) throw new GoogleApiError(400, `Invalid ${at}: You can't merge cells that are already partially merged.`);
      if (mergeType === 'MERGE_ALL') area.sheet.merges.push(range);
      else if (mergeType === 'MERGE_ROWS') for (let r = area.r0; r < area.r1; r++) area.sheet.merges.push({ ...range, startRowIndex: r, endRowIndex: r + 1 });
      else for (let c = area.c0; c < area.c1; c++) area.sheet.merges.push({ ...range, startColumnIndex: c, endColumnIndex: c + 1 });
      return {};
    }
    case 'insertDimension':
    case 'deleteDimension': {
      requireFields(body, ['range'], at);
      const range = body.range as Json;
      requireFields(range, ['dimension', 'endIndex'], `${at}.range`);
      const sheet = sheetById(range.sheetId);
      const start = Number(range.startIndex ?? 0);
      const count = Number(range.endIndex) - start;
      const rows = range.dimension === 'ROWS';
      if (!rows && range.dimension !== 'COLUMNS') throw new GoogleApiError(400, `Invalid value at '${at}.range.dimension', "${String(range.dimension)}"`);
      const grid = sheet.properties.gridProperties;
      if (count <= 0 || start < 0) throw new GoogleApiError(400, `Invalid ${at}: endIndex must be greater than startIndex.`);
      const size = rows ? grid.rowCount : grid.columnCount;
      if (kind === 'deleteDimension') {
        if (start + count > size) throw new GoogleApiError(400, `Invalid ${at}: Cannot delete ${rows ? 'rows' : 'columns'} beyond the grid (${size}).`);
        if (count === size) throw new GoogleApiError(400, `Invalid ${at}: You can't delete all the ${rows ? 'rows' : 'columns'} on the sheet.`);
        if (rows) sheet.cells.splice(start, count);
        else sheet.cells.forEach((row) => row?.splice(start, count));
      } else {
        if (start > size) throw new GoogleApiError(400, `Invalid ${at}: startIndex ${start} is after the end of the grid (${size}).`);
        if (rows) sheet.cells.splice(Math.min(start, sheet.cells.length), 0, ...Array.from({ length: count }, () => []));
        else sheet.cells.forEach((row) => row && row.length > start && row.splice(start, 0, ...new Array<undefined>(count)));
      }
      const delta = kind === 'deleteDimension' ? -count : count;
      shiftReferences(spreadsheet, sheet, rows, start, delta);
      if (rows) grid.rowCount += delta;
      else grid.columnCount = Math.min(MAX_COLUMNS, grid.columnCount + delta);
      return {};
    }
    case 'appendDimension': {
      requireFields(body, ['dimension', 'length'], at);
      const grid = sheetById(body.sheetId).properties.gridProperties;
      if (body.dimension === 'ROWS') grid.rowCount += Number(body.length);
      else if (body.dimension === 'COLUMNS') grid.columnCount += Number(body.length);
      else throw new GoogleApiError(400, `Invalid value at '${at}.dimension', "${String(body.dimension)}"`);
      return {};
    }
    case 'addNamedRange': {
      requireFields(body, ['namedRange'], at);
      const named = body.namedRange as Json;
      requireFields(named, ['name', 'range'], `${at}.namedRange`);
      const name = String(named.name);
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,249}$/.test(name) || /^[A-Za-z]{1,3}\d+$/.test(name) || /^(true|false)$/i.test(name)) {
        throw new GoogleApiError(400, `Invalid ${at}: Named range name "${name}" is invalid.`);
      }
      if (spreadsheet.namedRanges.some((n) => n.name.toLowerCase() === name.toLowerCase()))
        throw new GoogleApiError(400, `Invalid ${at}: Named range with name "${name}" already exists.`);
      const area = gridArea(spreadsheet, named.range as GridRange, at);
      const namedRange = {
        namedRangeId: typeof named.namedRangeId === 'string' ? named.namedRangeId : `nr_${Math.random().toString(36).slice(2, 12)}`,
        name,
        range: { sheetId: area.sheet.properties.sheetId, startRowIndex: area.r0, endRowIndex: area.r1, startColumnIndex: area.c0, endColumnIndex: area.c1 },
      };
      spreadsheet.namedRanges.push(namedRange);
      return { addNamedRange: { namedRange } };
    }
    case 'deleteNamedRange': {
      requireFields(body, ['namedRangeId'], at);
      const index = spreadsheet.namedRanges.findIndex((n) => n.namedRangeId === body.namedRangeId);
      if (index < 0) throw new GoogleApiError(400, `Invalid ${at}: No named range with id ${String(body.namedRangeId)}.`);
      spreadsheet.namedRanges.splice(index, 1);
      return {};
    }
    case 'findReplace': {
      requireFields(body, ['find'], at);
      const find = String(body.find);
      const flags = body.matchCase === true ? 'g' : 'gi';
      const pattern = new RegExp(body.searchByRegex === true ? find : find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
      const sheets =
        body.allSheets === true ? spreadsheet.sheets : body.range !== undefined ? [gridArea(spreadsheet, body.range as GridRange, at).sheet] : [sheetById(body.sheetId)];
      let values = 0;
      let occurrences = 0;
      const rowsChanged = new Set<string>();
      const sheetsChanged = new Set<number>();
      for (const sheet of sheets) {
        sheet.cells.forEach((row, r) =>
          row?.forEach((cell) => {
            if (!cell || typeof cell.value !== 'string') return;
            const hits = body.matchEntireCell === true ? (new RegExp(`^(?:${pattern.source})$`, flags).test(cell.value) ? 1 : 0) : (cell.value.match(pattern) ?? []).length;
            if (hits === 0) return;
            cell.value = body.matchEntireCell === true ? String(body.replacement ?? '') : cell.value.replace(pattern, String(body.replacement ?? ''));
            values += 1;
            occurrences += hits;
            rowsChanged.add(`${sheet.properties.sheetId}:${r}`);
            sheetsChanged.add(sheet.properties.sheetId);
          }),
        );
      }
      const reply: Json = {};
      if (values) Object.assign(reply, { valuesChanged: values, occurrencesChanged: occurrences, rowsChanged: rowsChanged.size, sheetsChanged: sheetsChanged.size });
      return { findReplace: reply };
    }
    default: {
      // Accepted but not modelled: still refuse a sheet id the spreadsheet does not have.
      checkSheetIds(body, (id) => sheetById(id));
      return {};
    }
  }
}

function checkSheetIds(value: unknown, check: (id: number) => unknown): void {
  if (Array.isArray(value)) value.forEach((v) => checkSheetIds(v, check));
  else if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'sheetId' || key === 'sourceSheetId') && typeof v === 'number') check(v);
      else checkSheetIds(v, check);
    }
  }
}

/** Does the `fields` mask of an update request select `name` (or all of it with `*`)? */
function fieldSelected(fields: string, name: string): boolean {
  return fields
    .split(',')
    .map((f) => f.trim())
    .some((f) => f === '*' || f === name || f.startsWith(`${name}.`) || f.startsWith(`${name}(`));
}

function subFields(fields: string, name: string): string {
  const parts = fields.split(',').map((f) => f.trim());
  if (parts.some((f) => f === '*' || f === name)) return '*';
  return parts
    .filter((f) => f.startsWith(`${name}.`))
    .map((f) => f.slice(name.length + 1))
    .join(',');
}

/** Copies the fields named by an update mask (`a.b,c` or `*`) from source to target; unset fields are cleared. */
function applyFields(target: Json, source: Json, fields: string, where: string): void {
  if (fields.trim() === '') throw new GoogleApiError(400, `Invalid ${where}: At least one field must be specified in 'fields'.`);
  if (fields.trim() === '*') {
    for (const [key, value] of Object.entries(source)) if (key !== 'sheetId') target[key] = value;
    return;
  }
  for (const path of fields.split(',').map((f) => f.trim())) {
    const steps = path.split('.');
    let to: Json = target;
    let from: unknown = source;
    steps.forEach((step, i) => {
      const last = i === steps.length - 1;
      from = isRecord(from) ? from[step] : undefined;
      if (last) {
        if (from === undefined) delete to[step];
        else to[step] = structuredClone(from);
      } else {
        if (!isRecord(to[step])) to[step] = {};
        to = to[step] as Json;
      }
    });
  }
}

/**
 * After rows or columns are inserted (delta > 0) or deleted (delta < 0) at `start`, moves the
 * references to that sheet in every formula and named range, as Sheets does; a reference whose
 * cells were all deleted becomes #REF!.
 */
function shiftReferences(spreadsheet: SpreadsheetState, sheet: SheetState, rows: boolean, start: number, delta: number): void {
  const move = (i: number): number | undefined => (i < start ? i : delta > 0 ? i + delta : i < start - delta ? undefined : i + delta);
  /** Inclusive bounds after the change, or undefined when none of them survives. */
  const moveSpan = (first: number, last: number): [number, number] | undefined => {
    const a = move(first) ?? start;
    const b = move(last) ?? start - 1;
    return b < a ? undefined : [a, b];
  };
  for (const owner of spreadsheet.sheets) {
    for (const row of owner.cells) {
      for (const cell of row ?? []) {
        if (cell?.formula === undefined) continue;
        cell.formula = cell.formula.replace(new RegExp(`"(?:[^"]|"")*"|(?<![A-Za-z0-9_$.])${REFERENCE}(?![A-Za-z0-9_(!])`, 'g'), (match) => {
          if (match.startsWith('"')) return match;
          const bang = match.lastIndexOf('!');
          const prefix = bang < 0 ? '' : match.slice(0, bang + 1);
          const title =
            bang < 0
              ? owner.properties.title
              : prefix
                  .slice(0, -1)
                  .replace(/^'(.*)'$/, '$1')
                  .replace(/''/g, "'");
          if (title !== sheet.properties.title) return match;
          const ends = match
            .slice(bang + 1)
            .split(':')
            .map((end) => /^(\$?)([A-Za-z]+)(\$?)(\d+)$/.exec(end) as RegExpExecArray);
          const index = (end: RegExpExecArray): number => (rows ? Number(end[4]) - 1 : columnIndex(end[2] as string));
          const span = moveSpan(index(ends[0] as RegExpExecArray), index(ends[ends.length - 1] as RegExpExecArray));
          if (!span) return '#REF!';
          const write = (end: RegExpExecArray, i: number): string => (rows ? `${end[1]}${end[2]}${end[3]}${i + 1}` : `${end[1]}${columnLetters(i)}${end[3]}${end[4]}`);
          return (
            prefix +
            (ends.length === 1 ? write(ends[0] as RegExpExecArray, span[0]) : `${write(ends[0] as RegExpExecArray, span[0])}:${write(ends[1] as RegExpExecArray, span[1])}`)
          );
        });
      }
    }
  }
  const [from, to] = rows ? (['startRowIndex', 'endRowIndex'] as const) : (['startColumnIndex', 'endColumnIndex'] as const);
  spreadsheet.namedRanges = spreadsheet.namedRanges.filter((named) => {
    if ((named.range.sheetId ?? 0) !== sheet.properties.sheetId || named.range[to] === undefined) return true;
    const span = moveSpan(named.range[from] ?? 0, (named.range[to] as number) - 1);
    if (!span) return false;
    named.range[from] = span[0];
    named.range[to] = span[1] + 1;
    return true;
  });
}
