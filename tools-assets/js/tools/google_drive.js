// Google Drive API v3: https://developers.google.com/drive/api/reference/rest/v3
var google_api = lib('google_api');

var BASE = 'https://www.googleapis.com/drive/v3';
var UPLOAD_BASE = 'https://www.googleapis.com/upload/drive/v3';
var FILE_FIELDS = 'id,name,mimeType,size,modifiedTime,parents,webViewLink,webContentLink';
var LIST_FIELDS = 'files(' + FILE_FIELDS + '),nextPageToken';
var SHARED_FIELDS = 'files(' + FILE_FIELDS + ',sharingUser(displayName,emailAddress)),nextPageToken';
var FOLDER_MIME = 'application/vnd.google-apps.folder';

// Used when drive_upload gets no mime_type; Drive stores whatever type the media part declares.
var MIME_BY_EXTENSION = {
  txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', tsv: 'text/tab-separated-values', html: 'text/html', htm: 'text/html',
  json: 'application/json', xml: 'application/xml', pdf: 'application/pdf', zip: 'application/zip',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  mp3: 'audio/mpeg', wav: 'audio/wav', mp4: 'video/mp4', mov: 'video/quicktime',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
};

function _drive(method, path, options) {
  return google_api.request('Drive', method, BASE + path, options);
}

function _fileUrl(fileId) {
  return '/files/' + encodeURIComponent(fileId);
}

/** A Drive query string literal: backslashes and single quotes are escaped with a backslash. */
function _quote(value) {
  return "'" + String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}

function _fileList(result) {
  var out = { files: result.files || [] };
  if (result.nextPageToken) out.nextPageToken = result.nextPageToken;
  return out;
}

/**
 * Streams a 2xx body into save_path (an error answer throws and leaves no file). The host does not
 * keep the body of an error answer to a download, so the status gets a short explanation instead.
 */
async function _saveTo(path, query, savePath, hints) {
  try {
    var response = await _drive('GET', path, { query: query, saveTo: savePath });
    return { path: response.saved.path, size: response.saved.bytes };
  } catch (error) {
    var status = /^Drive API error \((\d+)\): $/.exec(error.message);
    if (status && hints[status[1]]) throw new Error(error.message + hints[status[1]]);
    throw error;
  }
}

var NOT_FOUND_HINT = 'file not found, or not shared with this account';

async function driveListFiles(params) {
  var q = ['trashed=false'];
  if (params.parent_id) q.push(_quote(params.parent_id) + ' in parents');
  if (params.query) q.push('(' + params.query + ')');
  var result = await _drive('GET', '/files', {
    query: { q: q.join(' and '), fields: LIST_FIELDS, pageSize: params.max_results, pageToken: params.page_token }
  });
  return _fileList(result);
}

async function driveGetFile(params) {
  return _drive('GET', _fileUrl(params.file_id), { query: { fields: FILE_FIELDS } });
}

async function driveDownload(params) {
  return _saveTo(_fileUrl(params.file_id), { alt: 'media' }, params.save_path, {
    403: 'the file cannot be downloaded (Docs, Sheets and Slides files need drive_export) or access is denied',
    404: NOT_FOUND_HINT
  });
}

async function driveUpload(params) {
  if (!fs.exists(params.file_path)) throw new Error('File not found: ' + params.file_path);
  var extension = (/\.([A-Za-z0-9]+)$/.exec(params.file_path) || [])[1];
  var mimeType = params.mime_type || (extension && MIME_BY_EXTENSION[extension.toLowerCase()]) || 'application/octet-stream';
  var metadata = { name: params.name, mimeType: mimeType };
  if (params.parent_id) metadata.parents = [params.parent_id];
  return google_api.request('Drive', 'POST', UPLOAD_BASE + '/files', {
    query: { uploadType: 'multipart', fields: FILE_FIELDS },
    multipart: {
      subtype: 'related',
      parts: [
        { contentType: 'application/json; charset=UTF-8', body: JSON.stringify(metadata) },
        { contentType: mimeType, file: params.file_path }
      ]
    }
  });
}

async function driveCreateFolder(params) {
  var body = { name: params.name, mimeType: FOLDER_MIME };
  if (params.parent_id) body.parents = [params.parent_id];
  return _drive('POST', '/files', { query: { fields: FILE_FIELDS }, body: body });
}

async function driveDeleteFile(params) {
  await _drive('DELETE', _fileUrl(params.file_id));
  return { success: true, fileId: params.file_id };
}

async function driveRenameFile(params) {
  return _drive('PATCH', _fileUrl(params.file_id), { query: { fields: FILE_FIELDS }, body: { name: params.new_name } });
}

async function driveMoveFile(params) {
  var current = await _drive('GET', _fileUrl(params.file_id), { query: { fields: 'parents' } });
  var previous = (current.parents || []).join(',');
  return _drive('PATCH', _fileUrl(params.file_id), {
    query: { addParents: params.new_parent_id, removeParents: previous, fields: FILE_FIELDS },
    body: {}
  });
}

async function driveShareFile(params) {
  return _drive('POST', _fileUrl(params.file_id) + '/permissions', {
    query: { sendNotificationEmail: params.send_notification === false ? 'false' : 'true', fields: 'id,type,role,emailAddress,displayName' },
    body: { type: 'user', role: params.role, emailAddress: params.email }
  });
}

async function driveExport(params) {
  var saved = await _saveTo(_fileUrl(params.file_id) + '/export', { mimeType: params.mime_type }, params.save_path, {
    400: 'this file cannot be exported to ' + params.mime_type,
    403: 'only Docs, Sheets and Slides files can be exported (use drive_download for other files) or access is denied',
    404: NOT_FOUND_HINT
  });
  saved.mimeType = params.mime_type;
  return saved;
}

async function driveGetStorageQuota() {
  var about = await _drive('GET', '/about', { query: { fields: 'storageQuota,user(displayName,emailAddress)' } });
  var quota = about.storageQuota || {};
  var bytes = function (value) {
    return value === undefined ? null : Number(value);
  };
  return {
    // No limit means the account has unlimited storage.
    limit: bytes(quota.limit),
    usage: bytes(quota.usage),
    usageInDrive: bytes(quota.usageInDrive),
    usageInDriveTrash: bytes(quota.usageInDriveTrash),
    user: about.user
  };
}

async function driveListShared(params) {
  var result = await _drive('GET', '/files', {
    query: { q: 'sharedWithMe and trashed=false', fields: SHARED_FIELDS, pageSize: params.max_results || 20, pageToken: params.page_token }
  });
  return _fileList(result);
}

async function driveSearch(params) {
  var result = await _drive('GET', '/files', {
    query: { q: 'name contains ' + _quote(params.query) + ' and trashed=false', fields: LIST_FIELDS, pageSize: params.max_results || 20, pageToken: params.page_token }
  });
  return _fileList(result);
}

async function driveCopy(params) {
  var body = {};
  if (params.name) body.name = params.name;
  if (params.parent_id) body.parents = [params.parent_id];
  return _drive('POST', _fileUrl(params.file_id) + '/copy', { query: { fields: FILE_FIELDS }, body: body });
}

async function drivePermissions(params) {
  var result = await _drive('GET', _fileUrl(params.file_id) + '/permissions', {
    query: { fields: 'permissions(id,type,role,emailAddress,displayName,domain)' }
  });
  return { fileId: params.file_id, permissions: result.permissions || [] };
}
