import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerSheetsRoutes, type SheetsFake } from '../testing/fake-google/sheets';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';
import { failure, ok, onlyRequest as request } from './workspace-test-helpers';

const HOST = 'sheets.googleapis.com';
let h: ToolHarness;
let sheets: SheetsFake;
let budget: string;

beforeAll(async () => {
  h = await startToolHarness({ files: ['google_sheets'] });
  sheets = registerSheetsRoutes(h.api);
  budget = sheets.seeded.budget;
});
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});
beforeEach(() => h.api.clearRequests());

const onlyRequest = () => request(h, HOST);

describe('J8 google_sheets: reading', () => {
  it('sheets_get: GET the spreadsheet with the sheet-properties field mask; returns the title and sheet summaries', async () => {
    const result = ok(await h.call('sheets_get', { spreadsheet_id: budget }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}`);
    expect(req.query).toEqual({ fields: 'spreadsheetId,properties,sheets.properties' });
    expect(result).toEqual({
      spreadsheetId: budget,
      title: 'Q3 Budget',
      locale: 'en_US',
      timeZone: 'Etc/GMT',
      url: `https://docs.google.com/spreadsheets/d/${budget}/edit`,
      sheets: [
        { sheetId: 0, title: 'Expenses', index: 0, sheetType: 'GRID', rowCount: 1000, columnCount: 26, frozenRowCount: 1 },
        { sheetId: expect.any(Number), title: 'Summary', index: 1, sheetType: 'GRID', rowCount: 1000, columnCount: 26 },
      ],
    });
  });

  it('sheets_read_values: the A1 range is URL-encoded in the path; formatted values, computed formulas, trailing blanks trimmed', async () => {
    const result = ok(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Expenses!A1:D9' }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}/values/Expenses!A1%3AD9`);
    expect(result).toEqual({
      range: 'Expenses!A1:D9',
      majorDimension: 'ROWS',
      rowCount: 5,
      values: [
        ['Date', 'Item', 'Amount'],
        ['2024-07-02', 'Office chairs', '1,250.00'],
        ['2024-07-15', 'Laptops', '3400'],
        ['2024-08-01', 'Coffee', '86.5'],
        ['', 'Total', '4736.5'],
      ],
    });
  });

  it('sheets_read_values: quoted sheet names, whole columns, named ranges; an empty range has no values', async () => {
    const roster = ok(await h.call('sheets_read_values', { spreadsheet_id: sheets.seeded.roster, range: "'Team Members'!A:B" }));
    expect(h.api.requests[0]!.path).toBe(`/v4/spreadsheets/${sheets.seeded.roster}/values/'Team%20Members'!A%3AB`);
    expect(roster).toMatchObject({
      range: "'Team Members'!A1:B1000",
      values: [
        ['Name', 'Role'],
        ['Ada Lovelace', 'Engineer'],
        ['Grace Hopper', 'Admiral'],
      ],
    });
    expect(ok(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Totals' }))).toMatchObject({ range: 'Expenses!B5:C5', values: [['Total', '4736.5']] });
    expect(ok(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Summary!F10:G12' }))).toEqual({
      range: 'Summary!F10:G12',
      majorDimension: 'ROWS',
      rowCount: 0,
      values: [],
    });
  });

  it('sheets_read_values: an unknown sheet, a malformed range and a range past the grid are 400s; an unknown spreadsheet is a 404', async () => {
    expect(failure(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Nope!A1:B2' }))).toMatch(/^Sheets API error \(400\): .*Unable to parse range: Nope!A1:B2/);
    expect(failure(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Expenses!A1:B2:C3' }))).toMatch(/Unable to parse range/);
    expect(failure(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Expenses!A1:A2000' }))).toMatch(/exceeds grid limits\. Max rows: 1000, max columns: 26/);
    const missing = await h.call('sheets_read_values', { spreadsheet_id: 'no-such-sheet', range: 'A1' });
    expect(missing).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(failure(missing)).toMatch(/^Sheets API error \(404\): .*Requested entity was not found/);
    expect(await h.call('sheets_read_values', { spreadsheet_id: budget })).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('sheets_metadata: the default mask includes named ranges and merges; a custom mask is passed through; a bad field is a 400', async () => {
    const meta = ok(await h.call('sheets_metadata', { spreadsheet_id: budget }));
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}`);
    expect(req.query.fields).toContain('namedRanges');
    expect(meta.namedRanges).toEqual([
      { namedRangeId: 'nr_totals', name: 'Totals', range: { sheetId: 0, startRowIndex: 4, endRowIndex: 5, startColumnIndex: 1, endColumnIndex: 3 } },
    ]);
    expect(meta.properties.title).toBe('Q3 Budget');
    expect(meta.spreadsheetUrl).toMatch(/^https:\/\/docs\.google\.com\/spreadsheets\/d\//);

    h.api.clearRequests();
    const titles = ok(await h.call('sheets_metadata', { spreadsheet_id: budget, fields: 'sheets(properties(sheetId,title))' }));
    expect(onlyRequest().query).toEqual({ fields: 'sheets(properties(sheetId,title))' });
    expect(titles).toEqual({ sheets: [{ properties: { sheetId: 0, title: 'Expenses' } }, { properties: { sheetId: expect.any(Number), title: 'Summary' } }] });
    expect(failure(await h.call('sheets_metadata', { spreadsheet_id: budget, fields: 'sheets.cellz' }))).toMatch(
      /^Sheets API error \(400\): .*Invalid field selection sheets\.cellz/,
    );
  });
});

describe('J8 google_sheets: writing', () => {
  it('sheets_write_values: PUT with valueInputOption=USER_ENTERED and a ValueRange body; numbers and formulas are parsed; reading returns what was written', async () => {
    const result = ok(
      await h.call('sheets_write_values', {
        spreadsheet_id: budget,
        range: 'Summary!D1',
        values: [
          ['Name', 'Score'],
          ['Ada', 42],
          ['Bo', '=E2*2'],
        ],
      }),
    );
    const req = onlyRequest();
    expect(req.method).toBe('PUT');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}/values/Summary!D1`);
    expect(req.query).toEqual({ valueInputOption: 'USER_ENTERED' });
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.json()).toEqual({
      range: 'Summary!D1',
      majorDimension: 'ROWS',
      values: [
        ['Name', 'Score'],
        ['Ada', 42],
        ['Bo', '=E2*2'],
      ],
    });
    expect(result).toEqual({ spreadsheetId: budget, updatedRange: 'Summary!D1:E3', updatedRows: 3, updatedColumns: 2, updatedCells: 6 });
    expect(sheets.read(budget, 'Summary!D1:E3')).toEqual([
      ['Name', 'Score'],
      ['Ada', '42'],
      ['Bo', '84'],
    ]);
  });

  it('sheets_write_values: RAW keeps strings as typed; null leaves a cell, "" empties it; data past the range is refused', async () => {
    h.api.clearRequests();
    ok(await h.call('sheets_write_values', { spreadsheet_id: budget, range: 'Summary!A4:C4', values: [['=1+1', '007', 'x']], value_input_option: 'RAW' }));
    expect(onlyRequest().query).toEqual({ valueInputOption: 'RAW' });
    expect(sheets.read(budget, 'Summary!A4:C4')).toEqual([['=1+1', '007', 'x']]);
    ok(await h.call('sheets_write_values', { spreadsheet_id: budget, range: 'Summary!A4:C4', values: [[null, '', 'y']] }));
    expect(sheets.read(budget, 'Summary!A4:C4')).toEqual([['=1+1', '', 'y']]);
    const tooWide = await h.call('sheets_write_values', { spreadsheet_id: budget, range: 'Summary!A4:B4', values: [[1, 2, 3]] });
    expect(failure(tooWide)).toMatch(/^Sheets API error \(400\): .*Requested writing within range \[Summary!A4:B4\], but tried writing to column \[C\]/);
    expect(await h.call('sheets_write_values', { spreadsheet_id: budget, range: 'Summary!A1', values: [['x']], value_input_option: 'PARSED' })).toMatchObject({
      errorType: 'validation_error',
    });
    expect(await h.call('sheets_write_values', { spreadsheet_id: budget, range: 'Summary!A1' })).toMatchObject({ errorType: 'validation_error' });
  });

  it('sheets_append_values: POST …:append with USER_ENTERED and INSERT_ROWS; rows land after the last non-empty row and the grid grows', async () => {
    const result = ok(
      await h.call('sheets_append_values', {
        spreadsheet_id: budget,
        range: 'Expenses!A:C',
        values: [
          ['2024-08-20', 'Paper', '12.25'],
          ['2024-08-21', 'Pens', 3],
        ],
      }),
    );
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}/values/Expenses!A%3AC:append`);
    expect(req.query).toEqual({ valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' });
    expect(req.json()).toEqual({
      range: 'Expenses!A:C',
      majorDimension: 'ROWS',
      values: [
        ['2024-08-20', 'Paper', '12.25'],
        ['2024-08-21', 'Pens', 3],
      ],
    });
    expect(result).toEqual({ spreadsheetId: budget, tableRange: 'Expenses!A1:C5', updatedRange: 'Expenses!A6:C7', updatedRows: 2, updatedColumns: 3, updatedCells: 6 });
    expect(sheets.read(budget, 'Expenses!A5:C7')).toEqual([
      ['', 'Total', '4736.5'],
      ['2024-08-20', 'Paper', '12.25'],
      ['2024-08-21', 'Pens', '3'],
    ]);
    expect(sheets.spreadsheets.get(budget)!.sheets[0]!.properties.gridProperties.rowCount).toBe(1002);

    // No table yet: the rows go at the top of the range.
    const empty = ok(await h.call('sheets_append_values', { spreadsheet_id: budget, range: 'Summary!H20:I', values: [['first']] }));
    expect(empty).toEqual({ spreadsheetId: budget, updatedRange: 'Summary!H20', updatedRows: 1, updatedColumns: 1, updatedCells: 1 });
    expect(await h.call('sheets_append_values', { spreadsheet_id: budget, range: 'Expenses!A:C', values: ['not-a-row'] })).toMatchObject({ errorType: 'validation_error' });
  });

  it('sheets_clear_values: POST …:clear with an empty JSON body; the cells read back empty', async () => {
    const result = ok(await h.call('sheets_clear_values', { spreadsheet_id: budget, range: 'Summary!D1:E3' }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}/values/Summary!D1%3AE3:clear`);
    expect(req.json()).toEqual({});
    expect(result).toEqual({ spreadsheetId: budget, clearedRange: 'Summary!D1:E3' });
    expect(sheets.read(budget, 'Summary!D1:E3')).toEqual([]);
    expect(sheets.read(budget, 'Summary!A1:B2')).toEqual([
      ['Quarter', 'Q3'],
      ['Owner', 'finance@example.com'],
    ]);
    expect(failure(await h.call('sheets_clear_values', { spreadsheet_id: 'missing', range: 'A1' }))).toMatch(/^Sheets API error \(404\)/);
  });
});

describe('J8 google_sheets: structure', () => {
  it('sheets_add_sheet: batchUpdate addSheet; returns the new sheet id; a duplicate title is refused', async () => {
    const result = ok(await h.call('sheets_add_sheet', { spreadsheet_id: budget, title: 'Forecast' }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}:batchUpdate`);
    expect(req.json()).toEqual({ requests: [{ addSheet: { properties: { title: 'Forecast' } } }] });
    expect(result).toEqual({ spreadsheetId: budget, sheetId: expect.any(Number), title: 'Forecast', index: 2, sheetType: 'GRID', rowCount: 1000, columnCount: 26 });
    expect(result.sheetId).toBeGreaterThan(0);
    expect(ok(await h.call('sheets_read_values', { spreadsheet_id: budget, range: 'Forecast' })).range).toBe('Forecast!A1:Z1000');
    expect(failure(await h.call('sheets_add_sheet', { spreadsheet_id: budget, title: 'forecast' }))).toMatch(
      /^Sheets API error \(400\): .*A sheet with the name \\?"forecast\\?" already exists/,
    );
    expect(await h.call('sheets_add_sheet', { spreadsheet_id: budget })).toMatchObject({ errorType: 'validation_error' });
  });

  it('sheets_batch_update: formats, merges and renames apply and show in later reads; a bad request rolls the whole batch back', async () => {
    const requests = [
      {
        repeatCell: {
          range: { sheetId: 0, startRowIndex: 1, endRowIndex: 4, startColumnIndex: 2, endColumnIndex: 3 },
          cell: { userEnteredFormat: { numberFormat: { type: 'CURRENCY', pattern: '$#,##0.00' } } },
          fields: 'userEnteredFormat.numberFormat',
        },
      },
      { mergeCells: { range: { sheetId: 0, startRowIndex: 4, endRowIndex: 5, startColumnIndex: 0, endColumnIndex: 2 }, mergeType: 'MERGE_ALL' } },
      { updateSheetProperties: { properties: { sheetId: 0, title: 'Costs' }, fields: 'title' } },
      { addNamedRange: { namedRange: { name: 'Amounts', range: { sheetId: 0, startRowIndex: 1, endRowIndex: 4, startColumnIndex: 2, endColumnIndex: 3 } } } },
    ];
    const result = ok(await h.call('sheets_batch_update', { spreadsheet_id: budget, requests }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v4/spreadsheets/${budget}:batchUpdate`);
    expect(req.json()).toEqual({ requests });
    expect(result).toEqual({
      spreadsheetId: budget,
      replies: [{}, {}, {}, { addNamedRange: { namedRange: { namedRangeId: expect.any(String), name: 'Amounts', range: requests[3]!.addNamedRange!.namedRange.range } } }],
    });
    expect(sheets.read(budget, 'Amounts')).toEqual([['$1,250.00'], ['$3,400.00'], ['$86.50']]);
    expect(ok(await h.call('sheets_metadata', { spreadsheet_id: budget, fields: 'sheets(properties.title,merges)' })).sheets[0]).toEqual({
      properties: { title: 'Costs' },
      merges: [{ sheetId: 0, startRowIndex: 4, endRowIndex: 5, startColumnIndex: 0, endColumnIndex: 2 }],
    });

    const bad = await h.call('sheets_batch_update', {
      spreadsheet_id: budget,
      requests: [{ updateSheetProperties: { properties: { sheetId: 0, title: 'Renamed' }, fields: 'title' } }, { deleteSheet: { sheetId: 424242 } }],
    });
    expect(failure(bad)).toMatch(/^Sheets API error \(400\): .*requests\[1\]\.deleteSheet: No grid with id: 424242/);
    expect(failure(await h.call('sheets_batch_update', { spreadsheet_id: budget, requests: [{ paintItBlack: {} }] }))).toMatch(/Unknown name \\?"paintItBlack\\?"/);
    expect(sheets.spreadsheets.get(budget)!.sheets[0]!.properties.title).toBe('Costs');
    expect(await h.call('sheets_batch_update', { spreadsheet_id: budget, requests: [] })).toMatchObject({ errorType: 'validation_error' });
    expect(await h.call('sheets_batch_update', { spreadsheet_id: budget, requests: ['addSheet'] })).toMatchObject({ errorType: 'validation_error' });
  });

  it('sheets_create: POST /spreadsheets with the title and sheets; the new spreadsheet is readable and writable', async () => {
    const result = ok(await h.call('sheets_create', { title: 'Trip plan', sheet_titles: ['Flights', 'Hotels'] }));
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v4/spreadsheets');
    expect(req.json()).toEqual({ properties: { title: 'Trip plan' }, sheets: [{ properties: { title: 'Flights' } }, { properties: { title: 'Hotels' } }] });
    expect(result).toEqual({
      spreadsheetId: expect.stringMatching(/^[A-Za-z0-9_-]{44}$/),
      title: 'Trip plan',
      url: `https://docs.google.com/spreadsheets/d/${result.spreadsheetId}/edit`,
      sheets: [
        { sheetId: 0, title: 'Flights', index: 0, sheetType: 'GRID', rowCount: 1000, columnCount: 26 },
        { sheetId: expect.any(Number), title: 'Hotels', index: 1, sheetType: 'GRID', rowCount: 1000, columnCount: 26 },
      ],
    });
    ok(await h.call('sheets_write_values', { spreadsheet_id: result.spreadsheetId, range: 'Hotels!A1', values: [['Lisbon', '3 nights']] }));
    expect(sheets.read(result.spreadsheetId, 'Hotels')).toEqual([['Lisbon', '3 nights']]);

    h.api.clearRequests();
    const plain = ok(await h.call('sheets_create', { title: 'Blank' }));
    expect(onlyRequest().json()).toEqual({ properties: { title: 'Blank' } });
    expect(plain.sheets).toEqual([{ sheetId: 0, title: 'Sheet1', index: 0, sheetType: 'GRID', rowCount: 1000, columnCount: 26 }]);
    expect(await h.call('sheets_create', {})).toMatchObject({ errorType: 'validation_error' });
  });
});
