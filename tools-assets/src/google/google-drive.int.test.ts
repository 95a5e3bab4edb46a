import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerDriveRoutes, type DriveFake } from '../testing/fake-google/drive';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const FIELDS = 'id,name,mimeType,size,modifiedTime,parents,webViewLink,webContentLink';

let h: ToolHarness;
let drive: DriveFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_drive'] });
  drive = registerDriveRoutes(h.api);
  c = googleToolChecks(h, 'Drive', 'www.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

/** The one request of the call, as `METHOD path` (host and bearer token checked). */
function only(line: string) {
  expect(c.sent()).toEqual([line]);
  return c.request(0);
}

describe('J8 google_drive: listing and searching', () => {
  it('drive_list_files: trashed=false and the parent in q, the catalogue fields, page size and token', async () => {
    const first = c.ok(await h.call('drive_list_files', { parent_id: drive.seeded.projects, max_results: 1 }));
    const req = only('GET /drive/v3/files');
    expect(req.query.get('q')).toBe(`trashed=false and '${drive.seeded.projects}' in parents`);
    expect(req.query.get('fields')).toBe(`files(${FIELDS}),nextPageToken`);
    expect(req.query.get('pageSize')).toBe('1');
    expect(first.files).toEqual([
      expect.objectContaining({ id: drive.seeded.report, name: 'Quarterly report.pdf', mimeType: 'application/pdf', size: '34', parents: [drive.seeded.projects] }),
    ]);
    expect(first.files[0].webContentLink).toContain(drive.seeded.report);
    expect(first.files[0].kind).toBeUndefined(); // the fields mask left it out

    h.api.clearRequests();
    const second = c.ok(await h.call('drive_list_files', { parent_id: drive.seeded.projects, max_results: 1, page_token: first.nextPageToken }));
    expect(only('GET /drive/v3/files').query.get('pageToken')).toBe(first.nextPageToken);
    expect(second.files.map((f: { name: string }) => f.name)).toEqual(['Meeting notes']);
    expect(second.nextPageToken).toBeUndefined();
  });

  it('drive_list_files: an extra query is ANDed in brackets; trashed files never show; a bad query is a 400', async () => {
    const pdfs = c.ok(await h.call('drive_list_files', { query: "mimeType = 'application/pdf' or name contains 'photo'" }));
    expect(only('GET /drive/v3/files').query.get('q')).toBe("trashed=false and (mimeType = 'application/pdf' or name contains 'photo')");
    expect(pdfs.files.map((f: { name: string }) => f.name).sort()).toEqual(['Quarterly report.pdf', 'Vendor contract.pdf', 'photo.png']);

    const all = c.ok(await h.call('drive_list_files', { parent_id: 'root' }));
    expect(all.files.map((f: { name: string }) => f.name)).not.toContain('old report draft.txt');
    expect(all.files.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['Projects', 'Archive', 'Team roster', 'photo.png']));

    c.apiError(await h.call('drive_list_files', { query: 'name has report' }), 400);
    c.invalid(await h.call('drive_list_files', { max_results: 0 }));
  });

  it('drive_search: name contains with quotes escaped, trashed=false, pageSize 20 by default', async () => {
    const result = c.ok(await h.call('drive_search', { query: 'report' }));
    const req = only('GET /drive/v3/files');
    expect(req.query.get('q')).toBe("name contains 'report' and trashed=false");
    expect(req.query.get('pageSize')).toBe('20');
    expect(result.files.map((f: { name: string }) => f.name)).toEqual(['Quarterly report.pdf']);

    h.api.clearRequests();
    c.ok(await h.call('drive_search', { query: "Bob's \\ notes", max_results: 5 }));
    expect(only('GET /drive/v3/files').query.get('q')).toBe("name contains 'Bob\\'s \\\\ notes' and trashed=false");
    expect(c.request(0).query.get('pageSize')).toBe('5');
    c.invalid(await h.call('drive_search', {}));
  });

  it('drive_list_shared: sharedWithMe and trashed=false, with who shared each file', async () => {
    const result = c.ok(await h.call('drive_list_shared', {}));
    const req = only('GET /drive/v3/files');
    expect(req.query.get('q')).toBe('sharedWithMe and trashed=false');
    expect(req.query.get('pageSize')).toBe('20');
    expect(result.files.map((f: { id: string }) => f.id)).toEqual([drive.seeded.sharedPlan, drive.seeded.sharedContract]);
    expect(result.files[0].sharingUser).toEqual({ displayName: 'Sam Partner', emailAddress: 'sam@partner.example' });
  });

  it('drive_search and drive_list_shared page with page_token: the nextPageToken of one call gets the next page', async () => {
    for (const [tool, params] of [
      ['drive_search', { query: 'pdf' }],
      ['drive_list_shared', {}],
    ] as const) {
      h.api.clearRequests();
      const all = c.ok(await h.call(tool, params));
      expect(all.files).toHaveLength(2);
      expect(all.nextPageToken).toBeUndefined();
      h.api.clearRequests();
      const first = c.ok(await h.call(tool, { ...params, max_results: 1 }));
      expect(first.files).toHaveLength(1);
      expect(first.nextPageToken).toEqual(expect.any(String));
      h.api.clearRequests();
      const second = c.ok(await h.call(tool, { ...params, max_results: 1, page_token: first.nextPageToken }));
      expect(only('GET /drive/v3/files').query.get('pageToken')).toBe(first.nextPageToken);
      expect(second.nextPageToken).toBeUndefined();
      expect([...first.files, ...second.files]).toEqual(all.files);
    }
  });
});

describe('J8 google_drive: files', () => {
  it('drive_get_file: metadata with the catalogue fields; an unknown id is a 404', async () => {
    const file = c.ok(await h.call('drive_get_file', { file_id: drive.seeded.notes }));
    const req = only(`GET /drive/v3/files/${drive.seeded.notes}`);
    expect(req.query.get('fields')).toBe(FIELDS);
    expect(file).toEqual({
      id: drive.seeded.notes,
      name: 'Meeting notes',
      mimeType: 'application/vnd.google-apps.document',
      modifiedTime: expect.any(String),
      parents: [drive.seeded.projects],
      webViewLink: `https://docs.google.com/document/d/${drive.seeded.notes}/edit?usp=drivesdk`,
    });
    c.apiError(await h.call('drive_get_file', { file_id: 'no-such-file' }), 404);
    c.invalid(await h.call('drive_get_file', {}));
  });

  it('drive_download: alt=media streamed to save_path; a Docs file is refused and a 404 leaves no file', async () => {
    const result = c.ok(await h.call('drive_download', { file_id: drive.seeded.photo, save_path: 'downloads/photo.png' }));
    const req = only(`GET /drive/v3/files/${drive.seeded.photo}`);
    expect(req.query.get('alt')).toBe('media');
    expect(result).toEqual({ path: 'downloads/photo.png', size: 12 });
    expect(readFileSync(path.join(h.filesRoot, 'downloads/photo.png')).equals(drive.file(drive.seeded.photo)!.content)).toBe(true);

    const docsFile = await h.call('drive_download', { file_id: drive.seeded.notes, save_path: 'notes.bin' });
    c.apiError(docsFile, 403);
    expect(docsFile.status === 'error' && docsFile.message).toContain('drive_export');
    const missing = await h.call('drive_download', { file_id: 'missing-id', save_path: 'missing.bin' });
    c.apiError(missing, 404);
    expect(missing.status === 'error' && missing.message).toContain('file not found');
    expect(existsSync(path.join(h.filesRoot, 'missing.bin'))).toBe(false);
    expect(existsSync(path.join(h.filesRoot, 'notes.bin'))).toBe(false);
  });

  it('drive_upload: a multipart/related POST with the JSON metadata then the exact media bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 13, 10, 45, 45, 255]);
    writeFileSync(path.join(h.filesRoot, 'blob.bin'), bytes);
    const file = c.ok(await h.call('drive_upload', { file_path: 'blob.bin', name: 'Blob.bin', parent_id: drive.seeded.archive }));
    const req = only('POST /upload/drive/v3/files');
    expect(req.query.get('uploadType')).toBe('multipart');
    expect(req.query.get('fields')).toBe(FIELDS);
    expect(req.headers['content-type']).toMatch(/^multipart\/related; boundary=/);
    const body = req.body.toString('latin1');
    expect(body).toContain(
      'Content-Type: application/json; charset=UTF-8\r\n\r\n{"name":"Blob.bin","mimeType":"application/octet-stream","parents":["' + drive.seeded.archive + '"]}',
    );
    expect(file).toMatchObject({ name: 'Blob.bin', mimeType: 'application/octet-stream', size: String(bytes.length), parents: [drive.seeded.archive] });
    expect(drive.file(file.id)!.content.equals(bytes)).toBe(true);
  });

  it('drive_upload: an absolute path inside the files folder, the type from the extension, My Drive by default', async () => {
    writeFileSync(path.join(h.filesRoot, 'hello.txt'), 'hello drive');
    const file = c.ok(await h.call('drive_upload', { file_path: path.join(h.filesRoot, 'hello.txt'), name: 'hello.txt' }));
    expect(file).toMatchObject({ name: 'hello.txt', mimeType: 'text/plain', parents: [drive.rootId], size: '11' });
    expect(c.request(0).body.toString('utf8')).toContain('Content-Type: text/plain\r\n\r\nhello drive\r\n');

    h.api.clearRequests();
    const missing = await h.call('drive_upload', { file_path: 'nope.bin', name: 'x' });
    expect(missing.status === 'error' && missing.message).toMatch(/nope\.bin/);
    expect(h.api.requests).toHaveLength(0);
    c.apiError(await h.call('drive_upload', { file_path: 'hello.txt', name: 'x', parent_id: 'no-folder' }), 404);
    c.invalid(await h.call('drive_upload', { file_path: 'hello.txt' }));
  });

  it('drive_create_folder: POST /files with the folder type and parent', async () => {
    const folder = c.ok(await h.call('drive_create_folder', { name: 'Receipts', parent_id: drive.seeded.archive }));
    const req = only('POST /drive/v3/files');
    expect(req.query.get('fields')).toBe(FIELDS);
    expect(c.body(0)).toEqual({ name: 'Receipts', mimeType: 'application/vnd.google-apps.folder', parents: [drive.seeded.archive] });
    expect(folder).toMatchObject({ name: 'Receipts', mimeType: 'application/vnd.google-apps.folder', parents: [drive.seeded.archive] });
    expect(folder.webViewLink).toBe(`https://drive.google.com/drive/folders/${folder.id}`);

    h.api.clearRequests();
    const top = c.ok(await h.call('drive_create_folder', { name: 'Top' }));
    expect(c.body(0)).toEqual({ name: 'Top', mimeType: 'application/vnd.google-apps.folder' });
    expect(top.parents).toEqual([drive.rootId]);
    c.invalid(await h.call('drive_create_folder', {}));
  });

  it('drive_rename_file: PATCH with {name}', async () => {
    const renamed = c.ok(await h.call('drive_rename_file', { file_id: drive.seeded.roster, new_name: 'Team roster 2025' }));
    const req = only(`PATCH /drive/v3/files/${drive.seeded.roster}`);
    expect(req.query.get('fields')).toBe(FIELDS);
    expect(c.body(0)).toEqual({ name: 'Team roster 2025' });
    expect(renamed).toMatchObject({ id: drive.seeded.roster, name: 'Team roster 2025' });
    expect(drive.file(drive.seeded.roster)!.name).toBe('Team roster 2025');
    c.apiError(await h.call('drive_rename_file', { file_id: 'nope', new_name: 'x' }), 404);
    c.invalid(await h.call('drive_rename_file', { file_id: drive.seeded.roster }));
  });

  it('drive_move_file: GET the parents, then PATCH with addParents and removeParents', async () => {
    const moved = c.ok(await h.call('drive_move_file', { file_id: drive.seeded.photo, new_parent_id: drive.seeded.archive }));
    expect(c.sent()).toEqual([`GET /drive/v3/files/${drive.seeded.photo}`, `PATCH /drive/v3/files/${drive.seeded.photo}`]);
    const [get, patch] = [c.request(0), c.request(1)];
    expect(get.query.get('fields')).toBe('parents');
    expect(c.body(1)).toEqual({});
    expect(patch.query.get('addParents')).toBe(drive.seeded.archive);
    expect(patch.query.get('removeParents')).toBe(drive.rootId);
    expect(patch.query.get('fields')).toBe(FIELDS);
    expect(moved.parents).toEqual([drive.seeded.archive]);
    expect(drive.file(drive.seeded.photo)!.parents).toEqual([drive.seeded.archive]);

    c.apiError(await h.call('drive_move_file', { file_id: drive.seeded.photo, new_parent_id: 'no-folder' }), 404);
    c.apiError(await h.call('drive_move_file', { file_id: drive.seeded.photo, new_parent_id: drive.seeded.report }), 400);
    expect(drive.file(drive.seeded.photo)!.parents).toEqual([drive.seeded.archive]);
  });

  it('drive_copy: POST /files/{id}/copy with the new name and parent, the bytes copied', async () => {
    const copy = c.ok(await h.call('drive_copy', { file_id: drive.seeded.report, name: 'Report copy.pdf', parent_id: drive.seeded.archive }));
    const req = only(`POST /drive/v3/files/${drive.seeded.report}/copy`);
    expect(req.query.get('fields')).toBe(FIELDS);
    expect(c.body(0)).toEqual({ name: 'Report copy.pdf', parents: [drive.seeded.archive] });
    expect(copy).toMatchObject({ name: 'Report copy.pdf', parents: [drive.seeded.archive], mimeType: 'application/pdf' });
    expect(copy.id).not.toBe(drive.seeded.report);
    expect(drive.file(copy.id)!.content.equals(drive.file(drive.seeded.report)!.content)).toBe(true);

    h.api.clearRequests();
    const plain = c.ok(await h.call('drive_copy', { file_id: drive.seeded.report }));
    expect(c.body(0)).toEqual({});
    expect(plain).toMatchObject({ name: 'Copy of Quarterly report.pdf', parents: [drive.seeded.projects] });
    c.apiError(await h.call('drive_copy', { file_id: 'nope' }), 404);
  });

  it('drive_delete_file: DELETE, 204 becomes success; a second delete is a 404', async () => {
    const scratch = c.ok(await h.call('drive_create_folder', { name: 'Scratch' }));
    h.api.clearRequests();
    expect(c.ok(await h.call('drive_delete_file', { file_id: scratch.id }))).toEqual({ success: true, fileId: scratch.id });
    only(`DELETE /drive/v3/files/${scratch.id}`);
    expect(drive.file(scratch.id)).toBeUndefined();
    c.apiError(await h.call('drive_delete_file', { file_id: scratch.id }), 404);
    c.invalid(await h.call('drive_delete_file', {}));
  });
});

describe('J8 google_drive: exports, sharing and quota', () => {
  it('drive_export: /export?mimeType streamed to save_path; a binary file or an unsupported format is refused', async () => {
    const result = c.ok(await h.call('drive_export', { file_id: drive.seeded.notes, mime_type: 'text/plain', save_path: 'exports/notes.txt' }));
    const req = only(`GET /drive/v3/files/${drive.seeded.notes}/export`);
    expect(req.query.get('mimeType')).toBe('text/plain');
    expect(result).toEqual({ path: 'exports/notes.txt', size: 36, mimeType: 'text/plain' });
    expect(readFileSync(path.join(h.filesRoot, 'exports/notes.txt'), 'utf8')).toBe('Meeting notes\nAgenda: budget review\n');

    const csv = c.ok(await h.call('drive_export', { file_id: drive.seeded.roster, mime_type: 'text/csv', save_path: 'roster.csv' }));
    expect(csv.size).toBe(readFileSync(path.join(h.filesRoot, 'roster.csv')).length);
    c.apiError(await h.call('drive_export', { file_id: drive.seeded.report, mime_type: 'text/plain', save_path: 'r.txt' }), 403);
    const csvOfDoc = await h.call('drive_export', { file_id: drive.seeded.notes, mime_type: 'text/csv', save_path: 'n.csv' });
    c.apiError(csvOfDoc, 400);
    expect(csvOfDoc.status === 'error' && csvOfDoc.message).toContain('cannot be exported to text/csv');
    c.apiError(await h.call('drive_export', { file_id: 'gone', mime_type: 'text/plain', save_path: 'gone.txt' }), 404);
    expect(existsSync(path.join(h.filesRoot, 'gone.txt'))).toBe(false);
    c.invalid(await h.call('drive_export', { file_id: drive.seeded.notes, save_path: 'x' }));
  });

  it('drive_share_file: POST a user permission, notification on by default and off on request', async () => {
    const permission = c.ok(await h.call('drive_share_file', { file_id: drive.seeded.report, email: 'Pat@Example.com', role: 'commenter' }));
    const req = only(`POST /drive/v3/files/${drive.seeded.report}/permissions`);
    expect(req.query.get('sendNotificationEmail')).toBe('true');
    expect(c.body(0)).toEqual({ type: 'user', role: 'commenter', emailAddress: 'Pat@Example.com' });
    expect(permission).toEqual({ id: expect.stringMatching(/^\d{20}$/), type: 'user', role: 'commenter', emailAddress: 'pat@example.com' });
    expect(drive.notifications).toContainEqual({ fileId: drive.seeded.report, emailAddress: 'pat@example.com', role: 'commenter' });

    h.api.clearRequests();
    const before = drive.notifications.length;
    c.ok(await h.call('drive_share_file', { file_id: drive.seeded.report, email: 'quiet@example.com', role: 'reader', send_notification: false }));
    expect(only(`POST /drive/v3/files/${drive.seeded.report}/permissions`).query.get('sendNotificationEmail')).toBe('false');
    expect(drive.notifications).toHaveLength(before);

    c.invalid(await h.call('drive_share_file', { file_id: drive.seeded.report, email: 'x@example.com', role: 'owner' }));
    c.apiError(await h.call('drive_share_file', { file_id: 'nope', email: 'x@example.com', role: 'reader' }), 404);
  });

  it('drive_permissions: the permission fields the catalogue names', async () => {
    const result = c.ok(await h.call('drive_permissions', { file_id: drive.seeded.notes }));
    const req = only(`GET /drive/v3/files/${drive.seeded.notes}/permissions`);
    expect(req.query.get('fields')).toBe('permissions(id,type,role,emailAddress,displayName,domain)');
    expect(result).toEqual({
      fileId: drive.seeded.notes,
      permissions: [
        { id: drive.me.permissionId, type: 'user', role: 'owner', emailAddress: 'alex@example.com', displayName: 'Alex Example' },
        { id: '09876543210987654321', type: 'user', role: 'writer', emailAddress: 'kim@example.com', displayName: 'Kim Colleague' },
      ],
    });
    c.apiError(await h.call('drive_permissions', { file_id: 'nope' }), 404);
  });

  it('drive_get_storage_quota: GET /about with fields; numbers in bytes, and an upload shows in the usage', async () => {
    const before = c.ok(await h.call('drive_get_storage_quota', {}));
    const req = only('GET /drive/v3/about');
    expect(req.query.get('fields')).toBe('storageQuota,user(displayName,emailAddress)');
    expect(before).toEqual({
      limit: 16_106_127_360,
      usage: expect.any(Number),
      usageInDrive: expect.any(Number),
      usageInDriveTrash: 5,
      user: { displayName: 'Alex Example', emailAddress: 'alex@example.com' },
    });
    expect(before.usage).toBe(before.usageInDrive + 2_000_000);

    writeFileSync(path.join(h.filesRoot, 'kilobyte.bin'), Buffer.alloc(1000, 7));
    c.ok(await h.call('drive_upload', { file_path: 'kilobyte.bin', name: 'kilobyte.bin' }));
    const after = c.ok(await h.call('drive_get_storage_quota', {}));
    expect(after.usageInDrive - before.usageInDrive).toBe(1000);
  });
});
