import { GoogleApiError, requireFields, type FakeGoogleApi, type GoogleRequest, type GoogleResponse } from '../fake-google-api';
import { rejectUnknownFields, rejectUnknownQuery } from './api-checks';
import { GMAIL_HOST, GMAIL_USER_PATH, type GmailFake } from './gmail';

export interface GmailVacationSettings {
  enableAutoReply: boolean;
  responseSubject?: string;
  responseBodyPlainText?: string;
  responseBodyHtml?: string;
  restrictToContacts?: boolean;
  restrictToDomain?: boolean;
  /** Epoch milliseconds as a decimal string (int64), like every Gmail time. */
  startTime?: string;
  endTime?: string;
}

export interface GmailImapSettings {
  enabled: boolean;
  autoExpunge: boolean;
  expungeBehavior: 'archive' | 'trash' | 'deleteForever' | 'expungeBehaviorUnspecified';
  maxFolderSize: number;
}

export interface GmailFilter {
  id: string;
  criteria: Record<string, unknown>;
  action: { addLabelIds?: string[]; removeLabelIds?: string[]; forward?: string };
}

export interface GmailForwardingAddress {
  forwardingEmail: string;
  verificationStatus: 'accepted' | 'pending';
}

export interface GmailAutoForwarding {
  enabled: boolean;
  emailAddress?: string;
  disposition?: 'dispositionUnspecified' | 'leaveInInbox' | 'archive' | 'trash' | 'markRead';
}

export interface GmailSettingsFake {
  vacation: GmailVacationSettings;
  imap: GmailImapSettings;
  readonly filters: Map<string, GmailFilter>;
  readonly forwardingAddresses: Map<string, GmailForwardingAddress>;
  autoForwarding: GmailAutoForwarding;
  readonly sendAs: Record<string, unknown>[];
  language: { displayLanguage: string };
  readonly delegates: { delegateEmail: string; verificationStatus: string }[];
}

export interface GmailSettingsFakeOptions {
  /** The mailbox fake: filter label ids are then checked against its labels, as Gmail does. */
  readonly mailbox?: GmailFake;
}

const EXPUNGE = ['archive', 'trash', 'deleteForever', 'expungeBehaviorUnspecified'];
const FOLDER_SIZES = [0, 1000, 2000, 5000, 10000];
const DISPOSITIONS = ['leaveInInbox', 'archive', 'trash', 'markRead'];
const VACATION = ['enableAutoReply', 'responseSubject', 'responseBodyPlainText', 'responseBodyHtml', 'restrictToContacts', 'restrictToDomain', 'startTime', 'endTime'];
const CRITERIA = ['from', 'to', 'subject', 'query', 'negatedQuery', 'hasAttachment', 'excludeChats', 'size', 'sizeComparison'];

function badRequest(message: string): GoogleApiError {
  return new GoogleApiError(400, message, 'INVALID_ARGUMENT');
}

function notFound(): GoogleApiError {
  return new GoogleApiError(404, 'Requested entity was not found.', 'NOT_FOUND');
}

function checkType(json: Record<string, unknown>, field: string, type: 'boolean' | 'string' | 'number'): void {
  if (json[field] !== undefined && typeof json[field] !== type) throw badRequest(`Invalid value at '${field}': expected a ${type}.`);
}

/** int64 fields travel as decimal strings in Google's JSON (a number is accepted too). */
function checkInt64(json: Record<string, unknown>, field: string): void {
  const value = json[field];
  if (value !== undefined && !/^\d+$/.test(String(value))) throw badRequest(`Invalid value at '${field}' (TYPE_INT64), "${String(value)}"`);
}

/**
 * Registers a fake of the Gmail API v1 settings resources (users.settings: vacation, imap,
 * filters, forwardingAddresses, autoForwarding, sendAs, language, delegates) on `api`. A fake for
 * tests: settings live in memory, seeded like a real account; PUT replaces the whole resource as
 * Gmail's update methods do; it checks enums, int64 times, filter criteria and actions,
 * that auto-forwarding targets a verified forwarding address, and answers unknown ids with 404.
 */
export function registerGmailSettingsRoutes(api: FakeGoogleApi, options: GmailSettingsFakeOptions = {}): GmailSettingsFake {
  const account = options.mailbox?.emailAddress ?? 'ada@example.com';
  const state: GmailSettingsFake = {
    vacation: { enableAutoReply: false, responseSubject: '', responseBodyPlainText: '', responseBodyHtml: '', restrictToContacts: false, restrictToDomain: false },
    imap: { enabled: true, autoExpunge: true, expungeBehavior: 'archive', maxFolderSize: 0 },
    filters: new Map([
      [
        'ANe1BmjkQ0qWQ2HlMOKN0hWxB4s3',
        { id: 'ANe1BmjkQ0qWQ2HlMOKN0hWxB4s3', criteria: { from: 'billing@shop.example' }, action: { addLabelIds: ['Label_2'], removeLabelIds: ['INBOX'] } },
      ],
    ]),
    forwardingAddresses: new Map([['ada.backup@example.org', { forwardingEmail: 'ada.backup@example.org', verificationStatus: 'accepted' as const }]]),
    autoForwarding: { enabled: false },
    sendAs: [
      { sendAsEmail: account, displayName: 'Ada Lovelace', replyToAddress: '', signature: '<div>Ada Lovelace<br>Analytical Engines Ltd.</div>', isPrimary: true, isDefault: true },
      { sendAsEmail: 'ada@engines.example', displayName: 'Ada (Engines)', replyToAddress: '', signature: '', isDefault: false, treatAsAlias: true, verificationStatus: 'accepted' },
    ],
    language: { displayLanguage: 'en-GB' },
    delegates: [{ delegateEmail: 'assistant@example.com', verificationStatus: 'accepted' }],
  };
  let nextFilter = 1;
  const path = `${GMAIL_USER_PATH}/settings`;
  const route = (method: string, sub: string, handler: (req: GoogleRequest) => GoogleResponse) =>
    api.route(method, GMAIL_HOST, path + sub, (req) => {
      if (req.params.userId !== 'me' && req.params.userId !== account) throw new GoogleApiError(403, `Delegation denied for ${account}`, 'PERMISSION_DENIED');
      rejectUnknownQuery(req, []);
      return handler(req);
    });
  const labelIds = (value: unknown, field: string): string[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badRequest(`Invalid value at '${field}': expected a list of strings.`);
    for (const id of value as string[]) if (options.mailbox && !options.mailbox.labels.has(id)) throw badRequest(`Invalid label ${id} in AddLabelIds/RemoveLabelIds`);
    return value as string[];
  };

  route('GET', '/vacation', () => ({ json: state.vacation }));
  route('PUT', '/vacation', (req) => {
    const json = req.json<Record<string, unknown>>();
    rejectUnknownFields(json, VACATION, 'vacation_settings');
    for (const field of ['enableAutoReply', 'restrictToContacts', 'restrictToDomain']) checkType(json, field, 'boolean');
    for (const field of ['responseSubject', 'responseBodyPlainText', 'responseBodyHtml']) checkType(json, field, 'string');
    checkInt64(json, 'startTime');
    checkInt64(json, 'endTime');
    if (json.startTime !== undefined && json.endTime !== undefined && Number(json.endTime) <= Number(json.startTime))
      throw badRequest('Invalid vacation settings: endTime must be after startTime.');
    state.vacation = { enableAutoReply: json.enableAutoReply === true, ...json } as GmailVacationSettings;
    if (json.startTime !== undefined) state.vacation.startTime = String(json.startTime);
    if (json.endTime !== undefined) state.vacation.endTime = String(json.endTime);
    return { json: state.vacation };
  });

  route('GET', '/imap', () => ({ json: state.imap }));
  route('PUT', '/imap', (req) => {
    const json = req.json<Record<string, unknown>>();
    rejectUnknownFields(json, ['enabled', 'autoExpunge', 'expungeBehavior', 'maxFolderSize'], 'imap_settings');
    checkType(json, 'enabled', 'boolean');
    checkType(json, 'autoExpunge', 'boolean');
    if (json.expungeBehavior !== undefined && !EXPUNGE.includes(String(json.expungeBehavior)))
      throw badRequest(`Invalid value at 'imap_settings.expunge_behavior', "${String(json.expungeBehavior)}"`);
    if (json.maxFolderSize !== undefined && !FOLDER_SIZES.includes(Number(json.maxFolderSize))) throw badRequest('Invalid maxFolderSize: use 0, 1000, 2000, 5000 or 10000.');
    state.imap = {
      enabled: json.enabled === true,
      autoExpunge: json.autoExpunge === true,
      expungeBehavior: (json.expungeBehavior as GmailImapSettings['expungeBehavior']) ?? 'expungeBehaviorUnspecified',
      maxFolderSize: Number(json.maxFolderSize ?? 0),
    };
    return { json: state.imap };
  });

  route('GET', '/filters', () => ({ json: state.filters.size ? { filter: [...state.filters.values()] } : {} }));
  route('POST', '/filters', (req) => {
    const json = req.json<{ criteria?: Record<string, unknown>; action?: Record<string, unknown> }>();
    rejectUnknownFields(json, ['id', 'criteria', 'action'], 'filter');
    const criteria = json.criteria ?? {};
    const action = json.action ?? {};
    rejectUnknownFields(action, ['addLabelIds', 'removeLabelIds', 'forward'], 'filter.action');
    rejectUnknownFields(criteria, CRITERIA, 'filter.criteria');
    if (!CRITERIA.some((key) => criteria[key] !== undefined && criteria[key] !== '')) throw badRequest("Filter doesn't have any criteria");
    const add = labelIds(action.addLabelIds, 'action.addLabelIds');
    const remove = labelIds(action.removeLabelIds, 'action.removeLabelIds');
    if (!add?.length && !remove?.length && !action.forward) throw badRequest("Filter doesn't have any actions");
    const duplicate = [...state.filters.values()].some((f) => JSON.stringify(f.criteria) === JSON.stringify(criteria) && JSON.stringify(f.action) === JSON.stringify(action));
    if (duplicate) throw new GoogleApiError(400, 'Filter already exists', 'FAILED_PRECONDITION');
    const filter: GmailFilter = {
      id: `ANe1Bmj${String(nextFilter++).padStart(4, '0')}xQ9`,
      criteria,
      action: { ...(add ? { addLabelIds: add } : {}), ...(remove ? { removeLabelIds: remove } : {}) },
    };
    state.filters.set(filter.id, filter);
    return { json: filter };
  });
  route('GET', '/filters/{id}', (req) => {
    const filter = state.filters.get(req.params.id!);
    if (!filter) throw notFound();
    return { json: filter };
  });
  route('DELETE', '/filters/{id}', (req) => {
    if (!state.filters.delete(req.params.id!)) throw notFound();
    return { status: 204 };
  });

  route('GET', '/forwardingAddresses', () => ({ json: state.forwardingAddresses.size ? { forwardingAddresses: [...state.forwardingAddresses.values()] } : {} }));
  route('POST', '/forwardingAddresses', (req) => {
    const json = req.json<Record<string, unknown>>();
    requireFields(json, ['forwardingEmail']);
    const email = String(json.forwardingEmail).trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest(`Invalid forwarding address: ${email}`);
    if (state.forwardingAddresses.has(email.toLowerCase())) throw new GoogleApiError(409, 'Forwarding address already exists.', 'ALREADY_EXISTS');
    const address: GmailForwardingAddress = { forwardingEmail: email, verificationStatus: 'pending' };
    state.forwardingAddresses.set(email.toLowerCase(), address);
    return { json: address };
  });

  route('GET', '/autoForwarding', () => ({ json: state.autoForwarding }));
  route('PUT', '/autoForwarding', (req) => {
    const json = req.json<Record<string, unknown>>();
    rejectUnknownFields(json, ['enabled', 'emailAddress', 'disposition'], 'auto_forwarding');
    checkType(json, 'enabled', 'boolean');
    if (json.disposition !== undefined && ![...DISPOSITIONS, 'dispositionUnspecified'].includes(String(json.disposition)))
      throw badRequest(`Invalid value at 'auto_forwarding.disposition', "${String(json.disposition)}"`);
    if (json.enabled === true) {
      requireFields(json, ['emailAddress', 'disposition']);
      if (json.disposition === 'dispositionUnspecified') throw badRequest('A disposition is required when auto-forwarding is enabled.');
      const address = state.forwardingAddresses.get(String(json.emailAddress).toLowerCase());
      if (!address || address.verificationStatus !== 'accepted') throw badRequest(`Unverified forwarding address: ${String(json.emailAddress)}`);
    }
    state.autoForwarding = { enabled: json.enabled === true, ...json } as GmailAutoForwarding;
    return { json: state.autoForwarding };
  });

  route('GET', '/sendAs', () => ({ json: { sendAs: state.sendAs } }));
  route('GET', '/language', () => ({ json: state.language }));
  route('GET', '/delegates', () => ({ json: state.delegates.length ? { delegates: state.delegates } : {} }));

  return state;
}
