import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerGmailRoutes } from '../testing/fake-google/gmail';
import { registerGmailSettingsRoutes, type GmailSettingsFake } from '../testing/fake-google/gmail-settings';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const SETTINGS = '/gmail/v1/users/me/settings';
let h: ToolHarness;
let settings: GmailSettingsFake;
let c: GoogleToolChecks;

beforeAll(async () => {
  h = await startToolHarness({ files: ['google_gmail_settings'] });
  // The mailbox answers GET /labels (label names in filters) and lets the settings fake check label ids.
  settings = registerGmailSettingsRoutes(h.api, { mailbox: registerGmailRoutes(h.api) });
  c = googleToolChecks(h, 'Gmail', 'gmail.googleapis.com');
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.api.clearRequests());
afterEach(() => {
  c.sent(); // every request carried the bearer token and went to gmail.googleapis.com, the Gmail discovery document's host
  expect(h.api.unmatched).toHaveLength(0);
});

const run = async (tool: string, params: Record<string, unknown> = {}): Promise<any> => c.ok(await h.call(tool, params));

/** An execution error whose message says why. */
async function refused(tool: string, params: Record<string, unknown>, message: RegExp): Promise<void> {
  const outcome = await h.call(tool, params);
  expect(outcome.status === 'error' && outcome.errorType === 'execution_error' && outcome.message).toMatch(message);
}

describe('J8 google_gmail_settings: vacation and IMAP', () => {
  it('gmail_settings_get_vacation: GET /vacation, times shown as ISO 8601', async () => {
    settings.vacation = { enableAutoReply: true, responseSubject: 'Away', responseBodyHtml: '<p>Back soon</p>', startTime: '1751328000000', endTime: '1752537600000' };
    const vacation = await run('gmail_settings_get_vacation');
    expect(c.sent()).toEqual([`GET ${SETTINGS}/vacation`]);
    expect(vacation).toEqual({
      enableAutoReply: true,
      responseSubject: 'Away',
      responseBodyHtml: '<p>Back soon</p>',
      responseBodyPlainText: '',
      restrictToContacts: false,
      restrictToDomain: false,
      startTime: '2025-07-01T00:00:00.000Z',
      endTime: '2025-07-15T00:00:00.000Z',
    });
  });

  it('gmail_settings_update_vacation: GET, then PUT the whole resource with the changes; ISO times become epoch milliseconds', async () => {
    settings.vacation = {
      enableAutoReply: false,
      responseSubject: 'Old',
      responseBodyPlainText: 'Plain text kept',
      responseBodyHtml: '<p>Old</p>',
      restrictToContacts: true,
      restrictToDomain: false,
    };
    const result = await run('gmail_settings_update_vacation', {
      enable_auto_reply: true,
      start_time: '2025-08-01',
      end_time: '2025-08-15T18:00:00+02:00',
      subject: 'Urlaub 🌴',
      body_html: '<p>Back on 18 August.</p>',
      restrict_to_contacts: false,
    });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/vacation`, `PUT ${SETTINGS}/vacation`]);
    expect(c.body(1)).toEqual({
      enableAutoReply: true,
      responseSubject: 'Urlaub 🌴',
      responseBodyPlainText: 'Plain text kept',
      responseBodyHtml: '<p>Back on 18 August.</p>',
      restrictToContacts: false,
      restrictToDomain: false,
      startTime: String(Date.UTC(2025, 7, 1)),
      endTime: String(Date.UTC(2025, 7, 15, 16)),
    });
    expect(result).toMatchObject({ enableAutoReply: true, responseSubject: 'Urlaub 🌴', startTime: '2025-08-01T00:00:00.000Z', endTime: '2025-08-15T16:00:00.000Z' });
    expect(settings.vacation.startTime).toBe(String(Date.UTC(2025, 7, 1)));

    h.api.clearRequests();
    expect(await run('gmail_settings_update_vacation', { enable_auto_reply: false })).toMatchObject({ enableAutoReply: false, responseSubject: 'Urlaub 🌴' });
    expect(c.body(1)).toMatchObject({ enableAutoReply: false, responseSubject: 'Urlaub 🌴', startTime: String(Date.UTC(2025, 7, 1)) });
  });

  it('gmail_settings_update_vacation: bad dates are refused before any request; enable_auto_reply is required', async () => {
    await refused('gmail_settings_update_vacation', { enable_auto_reply: true, start_time: 'next monday' }, /start_time must be an ISO 8601 date/);
    await refused('gmail_settings_update_vacation', { enable_auto_reply: true, start_time: '2025-08-15', end_time: '2025-08-01' }, /end_time must be after start_time/);
    expect(h.api.requests).toHaveLength(0);
    c.invalid(await h.call('gmail_settings_update_vacation', { subject: 'x' }));
  });

  it('gmail_settings_get_imap and gmail_settings_update_imap: GET /imap; the update keeps what is not given (GET then PUT)', async () => {
    expect(await run('gmail_settings_get_imap')).toEqual({ enabled: true, autoExpunge: true, expungeBehavior: 'archive', maxFolderSize: 0 });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/imap`]);

    h.api.clearRequests();
    const updated = await run('gmail_settings_update_imap', { expunge_behavior: 'trash', max_folder_size: 1000 });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/imap`, `PUT ${SETTINGS}/imap`]);
    expect(c.body(1)).toEqual({ enabled: true, autoExpunge: true, expungeBehavior: 'trash', maxFolderSize: 1000 });
    expect(updated).toEqual({ enabled: true, autoExpunge: true, expungeBehavior: 'trash', maxFolderSize: 1000 });
    expect(settings.imap.maxFolderSize).toBe(1000);

    await refused('gmail_settings_update_imap', {}, /Give at least one of enabled/);
    c.invalid(await h.call('gmail_settings_update_imap', { max_folder_size: 300 }));
    c.invalid(await h.call('gmail_settings_update_imap', { expunge_behavior: 'shred' }));
  });
});

describe('J8 google_gmail_settings: filters', () => {
  it('gmail_settings_list_filters: GET /filters (the API’s "filter" array) as filters', async () => {
    const result = await run('gmail_settings_list_filters');
    expect(c.sent()).toEqual([`GET ${SETTINGS}/filters`]);
    expect(result.filters).toContainEqual({
      id: 'ANe1BmjkQ0qWQ2HlMOKN0hWxB4s3',
      criteria: { from: 'billing@shop.example' },
      action: { addLabelIds: ['Label_2'], removeLabelIds: ['INBOX'] },
    });
    expect(result.count).toBe(settings.filters.size);
  });

  it('gmail_settings_create_filter: POST /filters {criteria, action}; label names are resolved to ids', async () => {
    const filter = await run('gmail_settings_create_filter', { from: 'boss@example.com', subject: 'urgent', add_label_ids: ['Work', 'STARRED'], remove_label_ids: ['inbox'] });
    expect(c.sent()).toEqual([`GET /gmail/v1/users/me/labels`, `POST ${SETTINGS}/filters`]);
    expect(c.body(1)).toEqual({ criteria: { from: 'boss@example.com', subject: 'urgent' }, action: { addLabelIds: ['Label_1', 'STARRED'], removeLabelIds: ['INBOX'] } });
    expect(filter).toEqual({
      id: expect.any(String),
      criteria: { from: 'boss@example.com', subject: 'urgent' },
      action: { addLabelIds: ['Label_1', 'STARRED'], removeLabelIds: ['INBOX'] },
    });
    expect(settings.filters.get(filter.id)?.criteria).toEqual({ from: 'boss@example.com', subject: 'urgent' });

    h.api.clearRequests();
    await run('gmail_settings_create_filter', { query: 'has:attachment larger:5M', add_label_ids: ['Label_2'] });
    expect(c.sent()).toEqual([`POST ${SETTINGS}/filters`]);
    expect(c.body(0)).toEqual({ criteria: { query: 'has:attachment larger:5M' }, action: { addLabelIds: ['Label_2'] } });
  });

  it('gmail_settings_create_filter: no criterion or no action is refused; Gmail refuses an unknown label id (400)', async () => {
    await refused('gmail_settings_create_filter', { add_label_ids: ['STARRED'] }, /needs a criterion/);
    await refused('gmail_settings_create_filter', { from: 'a@example.com' }, /needs an action/);
    expect(h.api.requests).toHaveLength(0);
    await refused('gmail_settings_create_filter', { from: 'a@example.com', add_label_ids: ['Label_77'] }, /^Gmail API error \(400\): .*Invalid label Label_77/);
    await refused('gmail_settings_create_filter', { from: 'a@example.com', add_label_ids: ['Nope'] }, /Unknown Gmail label "Nope"/);
  });

  it('gmail_settings_delete_filter: DELETE /filters/{id}; an unknown id is a 404', async () => {
    const filter = await run('gmail_settings_create_filter', { to: 'list@example.org', add_label_ids: ['Receipts'] });
    h.api.clearRequests();
    expect(await run('gmail_settings_delete_filter', { filter_id: filter.id })).toEqual({ deleted: filter.id });
    expect(c.sent()).toEqual([`DELETE ${SETTINGS}/filters/${filter.id}`]);
    expect(settings.filters.has(filter.id)).toBe(false);
    await refused('gmail_settings_delete_filter', { filter_id: filter.id }, /^Gmail API error \(404\): .*Requested entity was not found/);
    c.invalid(await h.call('gmail_settings_delete_filter', {}));
  });
});

describe('J8 google_gmail_settings: forwarding', () => {
  it('gmail_settings_list_forwarding_addresses: GET /forwardingAddresses', async () => {
    const result = await run('gmail_settings_list_forwarding_addresses');
    expect(c.sent()).toEqual([`GET ${SETTINGS}/forwardingAddresses`]);
    expect(result.forwardingAddresses).toContainEqual({ forwardingEmail: 'ada.backup@example.org', verificationStatus: 'accepted' });
  });

  it('gmail_settings_add_forwarding: POST /forwardingAddresses {forwardingEmail}; the address starts pending; a duplicate is a 409', async () => {
    const added = await run('gmail_settings_add_forwarding', { forwarding_email: 'ada@archive.example.org' });
    expect(c.sent()).toEqual([`POST ${SETTINGS}/forwardingAddresses`]);
    expect(c.body(0)).toEqual({ forwardingEmail: 'ada@archive.example.org' });
    expect(added).toMatchObject({ forwardingEmail: 'ada@archive.example.org', verificationStatus: 'pending', note: expect.stringContaining('verification email') });
    expect(settings.forwardingAddresses.get('ada@archive.example.org')?.verificationStatus).toBe('pending');
    await refused('gmail_settings_add_forwarding', { forwarding_email: 'ada@archive.example.org' }, /^Gmail API error \(409\)/);
    c.invalid(await h.call('gmail_settings_add_forwarding', {}));
  });

  it('gmail_settings_get_auto_forwarding and gmail_settings_set_auto_forward: PUT /autoForwarding {enabled, emailAddress, disposition}', async () => {
    expect(await run('gmail_settings_get_auto_forwarding')).toEqual({ enabled: false });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/autoForwarding`]);

    h.api.clearRequests();
    const on = await run('gmail_settings_set_auto_forward', { enabled: true, email_address: 'ada.backup@example.org' });
    expect(c.sent()).toEqual([`PUT ${SETTINGS}/autoForwarding`]);
    expect(c.body(0)).toEqual({ enabled: true, emailAddress: 'ada.backup@example.org', disposition: 'leaveInInbox' });
    expect(on).toEqual({ enabled: true, emailAddress: 'ada.backup@example.org', disposition: 'leaveInInbox' });

    h.api.clearRequests();
    await run('gmail_settings_set_auto_forward', { enabled: true, email_address: 'ada.backup@example.org', disposition: 'archive' });
    expect(settings.autoForwarding.disposition).toBe('archive');
    expect(await run('gmail_settings_set_auto_forward', { enabled: false })).toEqual({ enabled: false });
    expect(c.body(1)).toEqual({ enabled: false });
  });

  it('gmail_settings_set_auto_forward: an unverified address is Gmail’s 400; enabling needs an address; bad disposition is a validation error', async () => {
    await run('gmail_settings_add_forwarding', { forwarding_email: 'new@example.org' });
    await refused('gmail_settings_set_auto_forward', { enabled: true, email_address: 'new@example.org' }, /^Gmail API error \(400\): .*Unverified forwarding address/);
    h.api.clearRequests();
    await refused('gmail_settings_set_auto_forward', { enabled: true }, /email_address is required/);
    expect(h.api.requests).toHaveLength(0);
    c.invalid(await h.call('gmail_settings_set_auto_forward', { enabled: true, email_address: 'ada.backup@example.org', disposition: 'delete' }));
    c.invalid(await h.call('gmail_settings_set_auto_forward', {}));
  });
});

describe('J8 google_gmail_settings: send-as, language, delegates', () => {
  it('gmail_settings_list_send_as: GET /sendAs with signatures and the default address', async () => {
    const result = await run('gmail_settings_list_send_as');
    expect(c.sent()).toEqual([`GET ${SETTINGS}/sendAs`]);
    expect(result.count).toBe(2);
    expect(result.sendAs[0]).toEqual({
      sendAsEmail: 'ada@example.com',
      displayName: 'Ada Lovelace',
      signature: '<div>Ada Lovelace<br>Analytical Engines Ltd.</div>',
      isPrimary: true,
      isDefault: true,
    });
    expect(result.sendAs[1]).toMatchObject({ sendAsEmail: 'ada@engines.example', isPrimary: false, isDefault: false, treatAsAlias: true, verificationStatus: 'accepted' });
  });

  it('gmail_settings_get_language: GET /language', async () => {
    expect(await run('gmail_settings_get_language')).toEqual({ displayLanguage: 'en-GB' });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/language`]);
  });

  it('gmail_settings_list_delegates: GET /delegates; none is an empty list', async () => {
    expect(await run('gmail_settings_list_delegates')).toEqual({ count: 1, delegates: [{ delegateEmail: 'assistant@example.com', verificationStatus: 'accepted' }] });
    expect(c.sent()).toEqual([`GET ${SETTINGS}/delegates`]);
    settings.delegates.length = 0;
    expect(await run('gmail_settings_list_delegates')).toEqual({ count: 0, delegates: [] });
  });
});
