import { createHash, randomBytes } from 'node:crypto';
import { GoogleApiError, requireFields, type FakeGoogleApi, type GoogleRequest } from '../fake-google-api';
import { applyFieldMask, checkFieldMask, parseFieldMask, type FieldSchema } from './api-checks';

const HOST = 'www.googleapis.com';
const BASE = '/drive/v3';
const FOLDER = 'application/vnd.google-apps.folder';
const GOOGLE_APPS = 'application/vnd.google-apps.';

export interface DriveUser {
  readonly displayName: string;
  readonly emailAddress: string;
  readonly permissionId: string;
}

export interface DrivePermission {
  id: string;
  type: 'user' | 'group' | 'domain' | 'anyone';
  role: string;
  emailAddress?: string;
  domain?: string;
  displayName?: string;
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  /** Bytes of a binary file, or the text a Docs Editors file exports as plain text / CSV. */
  content: Buffer;
  description?: string;
  createdTime: string;
  modifiedTime: string;
  trashed: boolean;
  starred: boolean;
  owner: DriveUser;
  /** Set on files someone else shared with the user. */
  sharingUser?: DriveUser;
  permissions: DrivePermission[];
  version: number;
}

/** A notification e-mail the fake "sent" when a file was shared. */
export interface DriveShareNotification {
  readonly fileId: string;
  readonly emailAddress: string;
  readonly role: string;
  readonly message?: string;
}

export interface DriveFake {
  readonly me: DriveUser;
  readonly rootId: string;
  readonly files: Map<string, DriveFile>;
  readonly notifications: DriveShareNotification[];
  /** Ids of the seeded files, by a short name. */
  readonly seeded: {
    readonly projects: string;
    readonly archive: string;
    readonly report: string;
    readonly notes: string;
    readonly roster: string;
    readonly photo: string;
    readonly trashedDraft: string;
    readonly sharedPlan: string;
    readonly sharedContract: string;
  };
  file(id: string): DriveFile | undefined;
}

const ME: DriveUser = { displayName: 'Alex Example', emailAddress: 'alex@example.com', permissionId: '04521337482910473625' };
const SAM: DriveUser = { displayName: 'Sam Partner', emailAddress: 'sam@partner.example', permissionId: '17733591028840017731' };
/** Quota used outside Drive (Gmail, Photos), counted in `usage` but not in `usageInDrive`. */
const OTHER_USAGE = 2_000_000;
const QUOTA_LIMIT = 16_106_127_360;

/**
 * A fake of the Google Drive API v3 (files, permissions, about and the multipart upload endpoint),
 * holding a small My Drive in memory. It answers as the v3 reference documents: the `fields` mask
 * selects what comes back (default `kind,id,name,mimeType`) and an unknown field is refused, `q` is
 * parsed with the query language's grammar (`name contains` is a prefix match on words, as Drive's
 * is), `pageSize` is 1..1000, page tokens are tied to their query, `about.get` requires `fields`,
 * `parents` is not writable in an update (addParents/removeParents are), downloads refuse Docs
 * Editors files and exports refuse binary ones, and unknown ids are 404 "File not found".
 */
export function registerDriveRoutes(api: FakeGoogleApi): DriveFake {
  const files = new Map<string, DriveFile>();
  const notifications: DriveShareNotification[] = [];
  let clock = Date.parse('2025-03-01T09:00:00.000Z');
  const now = (): string => new Date((clock += 60_000)).toISOString();

  const add = (init: Partial<DriveFile> & Pick<DriveFile, 'name' | 'mimeType'>): DriveFile => {
    const time = init.createdTime ?? now();
    const owner = init.owner ?? ME;
    const file: DriveFile = {
      id: init.id ?? newFileId(),
      parents: [],
      content: Buffer.alloc(0),
      createdTime: time,
      modifiedTime: time,
      trashed: false,
      starred: false,
      owner,
      permissions: [{ id: owner.permissionId, type: 'user', role: 'owner', emailAddress: owner.emailAddress, displayName: owner.displayName }],
      version: 1,
      ...init,
    };
    if (init.sharingUser) file.permissions.push({ id: ME.permissionId, type: 'user', role: 'reader', emailAddress: ME.emailAddress, displayName: ME.displayName });
    files.set(file.id, file);
    return file;
  };

  const rootId = '0AFakeRootFolderUk9PVA';
  add({ id: rootId, name: 'My Drive', mimeType: FOLDER });
  const projects = add({ name: 'Projects', mimeType: FOLDER, parents: [rootId] });
  const archive = add({ name: 'Archive', mimeType: FOLDER, parents: [rootId] });
  const report = add({ name: 'Quarterly report.pdf', mimeType: 'application/pdf', parents: [projects.id], content: Buffer.from('%PDF-1.4\n% quarterly report\n%%EOF\n') });
  const notes = add({ name: 'Meeting notes', mimeType: `${GOOGLE_APPS}document`, parents: [projects.id], content: Buffer.from('Meeting notes\nAgenda: budget review\n') });
  notes.permissions.push({ id: '09876543210987654321', type: 'user', role: 'writer', emailAddress: 'kim@example.com', displayName: 'Kim Colleague' });
  const roster = add({ name: 'Team roster', mimeType: `${GOOGLE_APPS}spreadsheet`, parents: [rootId], content: Buffer.from('name,role\nAlex,lead\nKim,dev\n') });
  const photo = add({ name: 'photo.png', mimeType: 'image/png', parents: [rootId], content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]) });
  const trashedDraft = add({ name: 'old report draft.txt', mimeType: 'text/plain', parents: [rootId], content: Buffer.from('draft'), trashed: true });
  const sharedPlan = add({ name: 'Shared launch plan', mimeType: `${GOOGLE_APPS}document`, owner: SAM, sharingUser: SAM, content: Buffer.from('Launch plan\n') });
  const sharedContract = add({ name: 'Vendor contract.pdf', mimeType: 'application/pdf', owner: SAM, sharingUser: SAM, content: Buffer.from('%PDF-1.4\n%%EOF\n') });

  const find = (id: string): DriveFile => {
    const resolved = id === 'root' ? rootId : id;
    const file = files.get(resolved);
    if (!file) throw new GoogleApiError(404, `File not found: ${id}.`, 'notFound');
    return file;
  };
  const folder = (id: string): DriveFile => {
    const file = find(id);
    if (file.mimeType !== FOLDER) throw new GoogleApiError(400, `The parent ${id} is not a folder.`, 'invalidParent');
    return file;
  };
  const touch = (file: DriveFile): void => {
    file.modifiedTime = now();
    file.version += 1;
  };
  const render = (file: DriveFile): Record<string, unknown> => renderFile(file, rootId);

  // files.list
  api.route('GET', HOST, `${BASE}/files`, (req) => {
    const q = req.query.get('q') ?? '';
    const match = q.trim() === '' ? () => true : parseQuery(q, rootId);
    const pageSize = intParam(req, 'pageSize', 100, 1, 1000);
    let hits = [...files.values()].filter((f) => f.id !== rootId && match(f));
    hits = orderFiles(hits, req.query.get('orderBy'));
    const offset = pageOffset(req, q);
    const page = hits.slice(offset, offset + pageSize);
    const answer: Record<string, unknown> = { kind: 'drive#fileList', incompleteSearch: false, files: page.map(render) };
    if (offset + pageSize < hits.length) answer.nextPageToken = pageToken(offset + pageSize, q);
    return { json: select(answer, req, FILE_LIST_SCHEMA, 'kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)') };
  });

  // files.get (metadata, or the content with alt=media)
  api.route('GET', HOST, `${BASE}/files/{fileId}`, (req) => {
    const file = find(req.params.fileId as string);
    const alt = req.query.get('alt') ?? 'json';
    if (alt === 'media') {
      if (file.mimeType.startsWith(GOOGLE_APPS)) {
        throw new GoogleApiError(403, 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', 'fileNotDownloadable');
      }
      return { body: file.content, headers: { 'content-type': file.mimeType } };
    }
    if (alt !== 'json') throw invalidValue('alt');
    return { json: select(render(file), req, FILE_SCHEMA, DEFAULT_FILE_FIELDS) };
  });

  // files.export
  api.route('GET', HOST, `${BASE}/files/{fileId}/export`, (req) => {
    const file = find(req.params.fileId as string);
    const mimeType = req.query.get('mimeType');
    if (!mimeType) throw new GoogleApiError(400, 'Required parameter: mimeType', 'required');
    if (!file.mimeType.startsWith(GOOGLE_APPS) || file.mimeType === FOLDER) {
      throw new GoogleApiError(403, 'Export only supports Docs Editors files.', 'fileNotExportable');
    }
    const formats = EXPORT_FORMATS[file.mimeType.slice(GOOGLE_APPS.length)] ?? [];
    if (!formats.includes(mimeType)) throw new GoogleApiError(400, 'The requested conversion is not supported.', 'badRequest');
    return { body: exported(file, mimeType), headers: { 'content-type': mimeType } };
  });

  // files.create without media (folders, empty files)
  api.route('POST', HOST, `${BASE}/files`, (req) => {
    const metadata = req.body.length > 0 ? req.json<FileMetadata>() : {};
    const file = add(createFrom(metadata, Buffer.alloc(0), 'application/octet-stream'));
    return { json: select(render(file), req, FILE_SCHEMA, DEFAULT_FILE_FIELDS) };
  });

  // files.create with media: multipart upload
  api.route('POST', HOST, `/upload${BASE}/files`, (req) => {
    const uploadType = req.query.get('uploadType');
    if (!uploadType) throw new GoogleApiError(400, 'Required parameter: uploadType', 'required');
    if (!['media', 'multipart', 'resumable'].includes(uploadType)) throw invalidValue('uploadType');
    if (uploadType !== 'multipart') throw new GoogleApiError(400, `This fake models uploadType=multipart only, not '${uploadType}'.`, 'badRequest');
    const contentType = req.headers['content-type'] ?? '';
    if (!/^multipart\/related\b/i.test(contentType)) {
      throw new GoogleApiError(400, `A multipart upload must be multipart/related, not '${contentType}'.`, 'badContent');
    }
    const parts = parseMultipart(req.body, contentType);
    if (parts.length !== 2) throw new GoogleApiError(400, `A multipart upload has exactly two parts (metadata, media); got ${parts.length}.`, 'badContent');
    const [meta, media] = parts as [MultipartPart, MultipartPart];
    if (!/^application\/json\b/i.test(meta.headers['content-type'] ?? '')) {
      throw new GoogleApiError(400, 'The first part of a multipart upload must be the application/json metadata.', 'badContent');
    }
    let metadata: FileMetadata;
    try {
      metadata = JSON.parse(meta.body.toString('utf8')) as FileMetadata;
    } catch {
      throw new GoogleApiError(400, 'Invalid JSON payload received in the metadata part.', 'parseError');
    }
    const mediaType = media.headers['content-type'] ?? 'application/octet-stream';
    const file = add(createFrom(metadata, media.body, mediaType));
    return { json: select(render(file), req, FILE_SCHEMA, DEFAULT_FILE_FIELDS) };
  });

  const createFrom = (metadata: FileMetadata, content: Buffer, mediaType: string): DriveFile => {
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new GoogleApiError(400, 'The metadata must be a JSON object.', 'badRequest');
    const parents = (metadata.parents ?? ['root']).map((p) => folder(p).id);
    if (parents.length > 1) throw new GoogleApiError(403, 'Increasing the number of parents is not allowed.', 'cannotAddParent');
    return {
      id: newFileId(),
      name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : 'Untitled',
      mimeType: metadata.mimeType ?? mediaType,
      parents,
      content,
      ...(metadata.description !== undefined ? { description: metadata.description } : {}),
    } as DriveFile;
  };

  // files.update (metadata only): rename, move with addParents/removeParents
  api.route('PATCH', HOST, `${BASE}/files/{fileId}`, (req) => {
    const file = find(req.params.fileId as string);
    const body = req.body.length > 0 ? req.json<FileMetadata>() : {};
    if (body.parents !== undefined) {
      throw new GoogleApiError(403, 'The parents field is not directly writable in update requests. Use the addParents and removeParents parameters instead.', 'fieldNotWritable');
    }
    for (const field of ['id', 'kind', 'size', 'webViewLink', 'owners']) {
      if (field in body) throw new GoogleApiError(403, `The resource body includes fields which are not directly writable: ${field}.`, 'fieldNotWritable');
    }
    const adding = splitIds(req.query.get('addParents')).map((id) => folder(id).id);
    const remove = splitIds(req.query.get('removeParents')).map((id) => (id === 'root' ? rootId : id));
    for (const id of remove) {
      if (!file.parents.includes(id)) throw new GoogleApiError(404, `File not found: ${id}.`, 'notFound');
    }
    const parents = [...file.parents.filter((p) => !remove.includes(p)), ...adding.filter((p) => !file.parents.includes(p))];
    if (parents.length > 1) throw new GoogleApiError(403, 'Increasing the number of parents is not allowed.', 'cannotAddParent');
    if (parents.includes(file.id)) throw new GoogleApiError(400, 'A folder cannot be its own parent.', 'invalidParent');
    if (body.name !== undefined) {
      if (typeof body.name !== 'string' || body.name === '') throw new GoogleApiError(400, 'Invalid value for name.', 'invalid');
      file.name = body.name;
    }
    if (body.description !== undefined) file.description = body.description;
    if (typeof body.starred === 'boolean') file.starred = body.starred;
    if (typeof body.trashed === 'boolean') file.trashed = body.trashed;
    file.parents = parents;
    touch(file);
    return { json: select(render(file), req, FILE_SCHEMA, DEFAULT_FILE_FIELDS) };
  });

  // files.delete: permanent, and a folder takes its descendants with it
  api.route('DELETE', HOST, `${BASE}/files/{fileId}`, (req) => {
    const file = find(req.params.fileId as string);
    if (file.id === rootId) throw new GoogleApiError(403, 'The root folder cannot be deleted.', 'cannotDeleteRoot');
    if (file.owner !== ME) throw new GoogleApiError(403, 'The user does not have sufficient permissions for this file.', 'insufficientFilePermissions');
    const doomed = [file.id];
    for (let i = 0; i < doomed.length; i++) {
      for (const child of files.values()) if (child.parents.includes(doomed[i] as string)) doomed.push(child.id);
    }
    for (const id of doomed) files.delete(id);
    return { status: 204 };
  });

  // files.copy
  api.route('POST', HOST, `${BASE}/files/{fileId}/copy`, (req) => {
    const source = find(req.params.fileId as string);
    const body = req.body.length > 0 ? req.json<FileMetadata>() : {};
    if (source.mimeType === FOLDER) throw new GoogleApiError(403, 'Folders cannot be copied.', 'cannotCopyFile');
    const parents = (body.parents ?? (source.owner === ME ? source.parents : ['root'])).map((p) => folder(p).id);
    const copy = add({
      name: typeof body.name === 'string' && body.name !== '' ? body.name : `Copy of ${source.name}`,
      mimeType: source.mimeType,
      parents,
      content: Buffer.from(source.content),
      ...(source.description !== undefined ? { description: source.description } : {}),
    });
    return { json: select(render(copy), req, FILE_SCHEMA, DEFAULT_FILE_FIELDS) };
  });

  // permissions.create
  api.route('POST', HOST, `${BASE}/files/{fileId}/permissions`, (req) => {
    const file = find(req.params.fileId as string);
    const body = req.json<Partial<DrivePermission> & { emailMessage?: string }>();
    requireFields(body, ['type', 'role']);
    if (!['user', 'group', 'domain', 'anyone'].includes(body.type as string)) throw new GoogleApiError(400, `Invalid value for type: ${body.type}.`, 'invalid');
    if (!['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'].includes(body.role as string))
      throw new GoogleApiError(400, `Invalid value for role: ${body.role}.`, 'invalid');
    if (body.type === 'user' || body.type === 'group') requireFields(body, ['emailAddress']);
    if (body.type === 'domain') requireFields(body, ['domain']);
    const notify = boolParam(req, 'sendNotificationEmail', true);
    if (body.role === 'owner' && req.query.get('transferOwnership') !== 'true') {
      throw new GoogleApiError(403, "The transferOwnership parameter must be enabled when the permission role is 'owner'.", 'forbidden');
    }
    if (file.owner !== ME && !file.permissions.some((p) => p.emailAddress === ME.emailAddress && p.role === 'writer')) {
      throw new GoogleApiError(403, 'The user does not have sufficient permissions for this file.', 'insufficientFilePermissions');
    }
    const email = body.emailAddress?.toLowerCase();
    let permission = file.permissions.find((p) => p.type === body.type && (email === undefined || p.emailAddress === email));
    if (permission) permission.role = body.role as string;
    else {
      permission = {
        id: body.type === 'anyone' ? 'anyoneWithLink' : numericId(),
        type: body.type as DrivePermission['type'],
        role: body.role as string,
        ...(email !== undefined ? { emailAddress: email } : {}),
        ...(body.domain !== undefined ? { domain: body.domain } : {}),
      };
      file.permissions.push(permission);
    }
    if (notify && email !== undefined)
      notifications.push({ fileId: file.id, emailAddress: email, role: permission.role, ...(body.emailMessage ? { message: body.emailMessage } : {}) });
    return { json: select({ kind: 'drive#permission', ...permission }, req, PERMISSION_SCHEMA, 'kind,id,type,role') };
  });

  // permissions.list
  api.route('GET', HOST, `${BASE}/files/{fileId}/permissions`, (req) => {
    const file = find(req.params.fileId as string);
    const permissions = file.permissions.map((p) => ({ kind: 'drive#permission', ...p }));
    return { json: select({ kind: 'drive#permissionList', permissions }, req, PERMISSION_LIST_SCHEMA, 'kind,permissions(kind,id,type,role)') };
  });

  // about.get
  api.route('GET', HOST, `${BASE}/about`, (req) => {
    if (!req.query.get('fields')) throw new GoogleApiError(400, "The 'fields' parameter is required for this method.", 'required');
    let inDrive = 0;
    let inTrash = 0;
    for (const file of files.values()) {
      if (file.owner !== ME || file.mimeType.startsWith(GOOGLE_APPS)) continue;
      inDrive += file.content.length;
      if (file.trashed) inTrash += file.content.length;
    }
    const about = {
      kind: 'drive#about',
      user: {
        kind: 'drive#user',
        displayName: ME.displayName,
        emailAddress: ME.emailAddress,
        permissionId: ME.permissionId,
        me: true,
        photoLink: 'https://lh3.googleusercontent.com/a/fake-photo',
      },
      storageQuota: { limit: String(QUOTA_LIMIT), usage: String(OTHER_USAGE + inDrive), usageInDrive: String(inDrive), usageInDriveTrash: String(inTrash) },
      maxUploadSize: '5242880000000',
      appInstalled: false,
    };
    return { json: select(about, req, ABOUT_SCHEMA, '') };
  });

  return {
    me: ME,
    rootId,
    files,
    notifications,
    seeded: {
      projects: projects.id,
      archive: archive.id,
      report: report.id,
      notes: notes.id,
      roster: roster.id,
      photo: photo.id,
      trashedDraft: trashedDraft.id,
      sharedPlan: sharedPlan.id,
      sharedContract: sharedContract.id,
    },
    file: (id) => files.get(id),
  };
}

interface FileMetadata {
  name?: string;
  mimeType?: string;
  parents?: string[];
  description?: string;
  starred?: boolean;
  trashed?: boolean;
}

function renderFile(file: DriveFile, rootId: string): Record<string, unknown> {
  const binary = !file.mimeType.startsWith(GOOGLE_APPS);
  const user = (u: DriveUser): Record<string, unknown> => ({
    kind: 'drive#user',
    displayName: u.displayName,
    emailAddress: u.emailAddress,
    permissionId: u.permissionId,
    me: u === ME,
  });
  const dot = file.name.lastIndexOf('.');
  return {
    kind: 'drive#file',
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    ...(file.description !== undefined ? { description: file.description } : {}),
    starred: file.starred,
    trashed: file.trashed,
    explicitlyTrashed: file.trashed,
    // Files shared with the user have no parent in their view of Drive.
    ...(file.owner === ME && file.id !== rootId ? { parents: [...file.parents] } : {}),
    version: String(file.version),
    webViewLink: webViewLink(file),
    ...(binary ? { webContentLink: `https://drive.google.com/uc?id=${file.id}&export=download` } : {}),
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${file.mimeType}`,
    createdTime: file.createdTime,
    modifiedTime: file.modifiedTime,
    ...(file.sharingUser ? { sharingUser: user(file.sharingUser), sharedWithMeTime: file.createdTime } : {}),
    owners: [user(file.owner)],
    shared: file.permissions.length > 1,
    ownedByMe: file.owner === ME,
    ...(binary && file.mimeType !== FOLDER
      ? {
          originalFilename: file.name,
          ...(dot > 0 ? { fileExtension: file.name.slice(dot + 1), fullFileExtension: file.name.slice(dot + 1) } : {}),
          md5Checksum: createHash('md5').update(file.content).digest('hex'),
          size: String(file.content.length),
        }
      : {}),
    quotaBytesUsed: String(binary ? file.content.length : 0),
    permissionIds: file.permissions.map((p) => p.id),
  };
}

function webViewLink(file: DriveFile): string {
  if (file.mimeType === FOLDER) return `https://drive.google.com/drive/folders/${file.id}`;
  const editor: Record<string, string> = { document: 'document', spreadsheet: 'spreadsheets', presentation: 'presentation', form: 'forms' };
  const kind = file.mimeType.startsWith(GOOGLE_APPS) ? editor[file.mimeType.slice(GOOGLE_APPS.length)] : undefined;
  if (kind) return `https://docs.google.com/${kind}/d/${file.id}/edit?usp=drivesdk`;
  return `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`;
}

const EXPORT_FORMATS: Record<string, readonly string[]> = {
  document: [
    'text/plain',
    'text/html',
    'text/markdown',
    'application/pdf',
    'application/rtf',
    'application/epub+zip',
    'application/zip',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  spreadsheet: [
    'text/csv',
    'text/tab-separated-values',
    'application/pdf',
    'application/zip',
    'application/x-vnd.oasis.opendocument.spreadsheet',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
  presentation: ['text/plain', 'application/pdf', 'application/vnd.oasis.opendocument.presentation', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
};

/** Text formats export the stored text; the others get a recognisable stand-in of that format. */
function exported(file: DriveFile, mimeType: string): Buffer {
  const text = file.content.toString('utf8');
  switch (mimeType) {
    case 'text/plain':
    case 'text/csv':
    case 'text/markdown':
      return Buffer.from(text);
    case 'text/tab-separated-values':
      return Buffer.from(text.replace(/,/g, '\t'));
    case 'text/html':
      return Buffer.from(
        `<html><body>${text
          .split('\n')
          .filter(Boolean)
          .map((l) => `<p>${l}</p>`)
          .join('')}</body></html>`,
      );
    case 'application/pdf':
      return Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(text), Buffer.from('\n%%EOF\n')]);
    default:
      // Office and OpenDocument formats are zip archives.
      return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(text)]);
  }
}

// ---- fields masks ---------------------------------------------------------------------------

const USER_SCHEMA: FieldSchema = { kind: true, displayName: true, photoLink: true, me: true, permissionId: true, emailAddress: true };
const PERMISSION_SCHEMA: FieldSchema = Object.fromEntries(
  [
    'kind',
    'id',
    'type',
    'role',
    'emailAddress',
    'domain',
    'displayName',
    'photoLink',
    'allowFileDiscovery',
    'expirationTime',
    'deleted',
    'pendingOwner',
    'view',
    'permissionDetails',
    'teamDrivePermissionDetails',
  ].map((f) => [f, true]),
);
const FILE_SCHEMA: FieldSchema = {
  ...Object.fromEntries(
    [
      'kind',
      'id',
      'name',
      'mimeType',
      'description',
      'starred',
      'trashed',
      'explicitlyTrashed',
      'parents',
      'properties',
      'appProperties',
      'spaces',
      'version',
      'webContentLink',
      'webViewLink',
      'iconLink',
      'hasThumbnail',
      'thumbnailLink',
      'thumbnailVersion',
      'viewedByMe',
      'viewedByMeTime',
      'createdTime',
      'modifiedTime',
      'modifiedByMeTime',
      'modifiedByMe',
      'sharedWithMeTime',
      'driveId',
      'shared',
      'ownedByMe',
      'capabilities',
      'viewersCanCopyContent',
      'copyRequiresWriterPermission',
      'writersCanShare',
      'permissionIds',
      'hasAugmentedPermissions',
      'folderColorRgb',
      'originalFilename',
      'fullFileExtension',
      'fileExtension',
      'md5Checksum',
      'sha1Checksum',
      'sha256Checksum',
      'size',
      'quotaBytesUsed',
      'headRevisionId',
      'contentHints',
      'imageMediaMetadata',
      'videoMediaMetadata',
      'isAppAuthorized',
      'exportLinks',
      'shortcutDetails',
      'contentRestrictions',
      'resourceKey',
      'linkShareMetadata',
      'labelInfo',
      'trashedTime',
      'trashingUser',
    ].map((f) => [f, true]),
  ),
  owners: USER_SCHEMA,
  sharingUser: USER_SCHEMA,
  lastModifyingUser: USER_SCHEMA,
  trashingUser: USER_SCHEMA,
  permissions: PERMISSION_SCHEMA,
};
const FILE_LIST_SCHEMA: FieldSchema = { kind: true, nextPageToken: true, incompleteSearch: true, files: FILE_SCHEMA };
const PERMISSION_LIST_SCHEMA: FieldSchema = { kind: true, nextPageToken: true, permissions: PERMISSION_SCHEMA };
const ABOUT_SCHEMA: FieldSchema = {
  kind: true,
  user: USER_SCHEMA,
  storageQuota: { limit: true, usage: true, usageInDrive: true, usageInDriveTrash: true },
  ...Object.fromEntries(
    [
      'importFormats',
      'exportFormats',
      'maxImportSizes',
      'maxUploadSize',
      'appInstalled',
      'folderColorPalette',
      'driveThemes',
      'canCreateDrives',
      'canCreateTeamDrives',
      'teamDriveThemes',
    ].map((f) => [f, true]),
  ),
};
const DEFAULT_FILE_FIELDS = 'kind,id,name,mimeType';

/** Applies the request's `fields` mask (or the method's default) after checking it names real fields. */
function select(resource: Record<string, unknown>, req: GoogleRequest, schema: FieldSchema, defaults: string): Record<string, unknown> {
  const mask = parseFieldMask(req.query.get('fields') ?? defaults);
  checkFieldMask(mask, schema);
  return applyFieldMask(resource, mask) as Record<string, unknown>;
}

// ---- the files.list query language ----------------------------------------------------------

type Matcher = (file: DriveFile) => boolean;
type Token = { kind: 'string' | 'word' | 'op' | 'paren'; text: string };

/** Parses Drive's `q` into a predicate; anything outside the grammar is a 400 "Invalid Value". */
function parseQuery(q: string, rootId: string): Matcher {
  const tokens = tokenize(q);
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const next = (): Token => {
    const token = tokens[i++];
    if (!token) throw invalidQuery(q);
    return token;
  };
  const keyword = (word: string): boolean => {
    const token = peek();
    if (token?.kind === 'word' && token.text.toLowerCase() === word) {
      i++;
      return true;
    }
    return false;
  };
  const or = (): Matcher => {
    let left = and();
    while (keyword('or')) {
      const a = left;
      const b = and();
      left = (f) => a(f) || b(f);
    }
    return left;
  };
  const and = (): Matcher => {
    let left = unary();
    while (keyword('and')) {
      const a = left;
      const b = unary();
      left = (f) => a(f) && b(f);
    }
    return left;
  };
  const unary = (): Matcher => {
    if (keyword('not')) {
      const inner = unary();
      return (f) => !inner(f);
    }
    const token = peek();
    if (token?.kind === 'paren' && token.text === '(') {
      i++;
      const inner = or();
      const close = next();
      if (close.kind !== 'paren' || close.text !== ')') throw invalidQuery(q);
      return inner;
    }
    return term();
  };
  const term = (): Matcher => {
    const first = next();
    if (first.kind === 'string') {
      if (!keyword('in')) throw invalidQuery(q);
      const field = next();
      const value = first.text === 'root' ? rootId : first.text;
      switch (field.kind === 'word' ? field.text : '') {
        case 'parents':
          return (f) => f.owner === ME && f.parents.includes(value);
        case 'owners':
          return (f) => (value === 'me' ? f.owner === ME : f.owner.emailAddress === value);
        case 'writers':
          return (f) => f.permissions.some((p) => p.emailAddress === value && ['owner', 'writer'].includes(p.role));
        case 'readers':
          return (f) => f.permissions.some((p) => p.emailAddress === value);
        default:
          throw invalidQuery(q);
      }
    }
    if (first.kind !== 'word') throw invalidQuery(q);
    const field = first.text;
    if (field === 'sharedWithMe') {
      if (peek()?.kind !== 'op') return (f) => f.sharingUser !== undefined;
    }
    const op = next();
    const operator = op.kind === 'op' ? op.text : op.kind === 'word' ? op.text.toLowerCase() : '';
    const value = next();
    const bool = (): boolean => {
      if (value.kind !== 'word' || !['true', 'false'].includes(value.text)) throw invalidQuery(q);
      if (operator !== '=' && operator !== '!=') throw invalidQuery(q);
      return (value.text === 'true') === (operator === '=');
    };
    const text = (): string => {
      if (value.kind !== 'string') throw invalidQuery(q);
      return value.text;
    };
    switch (field) {
      case 'trashed': {
        const want = bool();
        return (f) => f.trashed === want;
      }
      case 'starred': {
        const want = bool();
        return (f) => f.starred === want;
      }
      case 'sharedWithMe': {
        const want = bool();
        return (f) => (f.sharingUser !== undefined) === want;
      }
      case 'name':
      case 'mimeType': {
        const wanted = text();
        const of = (f: DriveFile): string => (field === 'name' ? f.name : f.mimeType);
        if (operator === '=') return (f) => of(f) === wanted;
        if (operator === '!=') return (f) => of(f) !== wanted;
        if (operator === 'contains') return field === 'name' ? (f) => wordPrefix(f.name, wanted) : (f) => f.mimeType.includes(wanted);
        throw invalidQuery(q);
      }
      case 'fullText': {
        const wanted = text().toLowerCase();
        if (operator !== 'contains') throw invalidQuery(q);
        const textual = (f: DriveFile): string => (f.mimeType.startsWith('text/') || f.mimeType.startsWith(GOOGLE_APPS) ? f.content.toString('utf8') : '');
        return (f) => [f.name, f.description ?? '', textual(f)].some((s) => s.toLowerCase().includes(wanted));
      }
      case 'modifiedTime':
      case 'createdTime': {
        const at = Date.parse(text());
        if (Number.isNaN(at)) throw invalidQuery(q);
        const compare: Record<string, (a: number) => boolean> = {
          '<': (a) => a < at,
          '<=': (a) => a <= at,
          '=': (a) => a === at,
          '!=': (a) => a !== at,
          '>': (a) => a > at,
          '>=': (a) => a >= at,
        };
        const test = compare[operator];
        if (!test) throw invalidQuery(q);
        return (f) => test(Date.parse(field === 'modifiedTime' ? f.modifiedTime : f.createdTime));
      }
      default:
        throw invalidQuery(q);
    }
  };
  const matcher = or();
  if (i !== tokens.length) throw invalidQuery(q);
  return matcher;
}

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= q.length) throw invalidQuery(q);
        const d = q[i] as string;
        if (d === '\\') {
          text += q[i + 1] ?? '';
          i += 2;
        } else if (d === c) {
          i++;
          break;
        } else {
          text += d;
          i++;
        }
      }
      tokens.push({ kind: 'string', text });
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: 'paren', text: c });
      i++;
    } else if (/[<>=!]/.test(c)) {
      const op = /^(<=|>=|!=|=|<|>)/.exec(q.slice(i))?.[1];
      if (!op) throw invalidQuery(q);
      tokens.push({ kind: 'op', text: op });
      i += op.length;
    } else {
      const word = /^[A-Za-z0-9_.@-]+/.exec(q.slice(i))?.[0];
      if (!word) throw invalidQuery(q);
      tokens.push({ kind: 'word', text: word });
      i += word.length;
    }
  }
  return tokens;
}

/** Drive's `name contains` matches the start of a word: 'report' finds "Quarterly report.pdf", 'port' does not. */
function wordPrefix(name: string, wanted: string): boolean {
  const hay = name.toLowerCase();
  const needle = wanted.toLowerCase();
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(hay[at - 1] as string)) return true;
  }
  return false;
}

function invalidQuery(q: string): GoogleApiError {
  return new GoogleApiError(400, `Invalid Value: the query '${q}' is not valid Drive query syntax.`, 'invalid');
}

function invalidValue(parameter: string): GoogleApiError {
  return new GoogleApiError(400, `Invalid Value for parameter '${parameter}'.`, 'invalid');
}

function orderFiles(files: DriveFile[], orderBy: string | null): DriveFile[] {
  if (!orderBy) return files;
  const keys = orderBy.split(',').map((part) => {
    const [key, direction] = part.trim().split(/\s+/);
    const by: Record<string, (f: DriveFile) => string | number> = {
      name: (f) => f.name.toLowerCase(),
      modifiedTime: (f) => f.modifiedTime,
      createdTime: (f) => f.createdTime,
      folder: (f) => (f.mimeType === FOLDER ? 0 : 1),
      starred: (f) => (f.starred ? 0 : 1),
    };
    const get = by[key ?? ''];
    if (!get || (direction !== undefined && direction !== 'desc')) throw invalidValue('orderBy');
    return { get, sign: direction === 'desc' ? -1 : 1 };
  });
  return [...files].sort((a, b) => {
    for (const { get, sign } of keys) {
      const x = get(a);
      const y = get(b);
      if (x < y) return -sign;
      if (x > y) return sign;
    }
    return 0;
  });
}

// ---- query parameters, ids, page tokens ----------------------------------------------------

function intParam(req: GoogleRequest, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw invalidValue(name);
  return value;
}

function boolParam(req: GoogleRequest, name: string, fallback: boolean): boolean {
  const raw = req.query.get(name);
  if (raw === null) return fallback;
  if (raw !== 'true' && raw !== 'false') throw invalidValue(name);
  return raw === 'true';
}

function splitIds(raw: string | null): string[] {
  return raw
    ? raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

function pageToken(offset: number, q: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q })).toString('base64url');
}

function pageOffset(req: GoogleRequest, q: string): number {
  const token = req.query.get('pageToken');
  if (!token) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o: number; q: string };
    if (decoded.q === q && Number.isInteger(decoded.o) && decoded.o >= 0) return decoded.o;
  } catch {
    // Falls through to the error below.
  }
  throw invalidValue('pageToken');
}

function newFileId(): string {
  return `1${randomBytes(24).toString('base64url').slice(0, 32)}`;
}

function numericId(): string {
  let id = '';
  for (const byte of randomBytes(20)) id += String(byte % 10);
  return id;
}

// ---- multipart/related ----------------------------------------------------------------------

interface MultipartPart {
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Splits a multipart body (RFC 2046) by the boundary its Content-Type names. */
function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const name = boundary?.[1] ?? boundary?.[2];
  if (!name) throw new GoogleApiError(400, 'The multipart Content-Type has no boundary.', 'badContent');
  const delimiter = Buffer.from(`--${name}`);
  const malformed = (): GoogleApiError => new GoogleApiError(400, 'Malformed multipart body.', 'badContent');
  let at = body.indexOf(delimiter);
  if (at < 0) throw malformed();
  const parts: MultipartPart[] = [];
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw malformed();
    at += 2;
    const end = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    if (end < 0) throw malformed();
    const raw = body.subarray(at, end);
    const split = raw.indexOf('\r\n\r\n');
    let head = '';
    let content: Buffer;
    if (raw.subarray(0, 2).toString() === '\r\n') {
      content = raw.subarray(2);
    } else {
      if (split < 0) throw malformed();
      head = raw.subarray(0, split).toString('utf8');
      content = raw.subarray(split + 4);
    }
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n').filter(Boolean)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw malformed();
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: content });
    at = end + 2;
  }
}
