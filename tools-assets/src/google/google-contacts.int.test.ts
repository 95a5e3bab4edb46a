import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SafeFetch } from '@oneclaw/js-tools';
import { FAKE_GOOGLE_ACCESS_TOKEN } from '../testing/fake-google-api';
import { registerPeopleRoutes, type PeopleFake } from '../testing/fake-google/people';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const BEARER = `Bearer ${FAKE_GOOGLE_ACCESS_TOKEN}`;
const FIELDS = 'names,emailAddresses,phoneNumbers,organizations,biographies,addresses';
const MARTA = 'people/c4829304756102938475';
const JOHN = 'people/c7712093847561029384';

let h: ToolHarness;
let people: PeopleFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_contacts'] });
  people = registerPeopleRoutes(h.api);
  c = googleToolChecks(h, 'People', 'people.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

describe('J8 google_contacts: reading contacts', () => {
  it('contacts_list: connections with the person fields, 20 a page by default, then the next page', async () => {
    const first = c.ok(await h.call('contacts_list', { max_results: 3 }));
    expect(c.sent()).toEqual(['GET /v1/people/me/connections']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ personFields: FIELDS, pageSize: '3' });
    expect(first.totalPeople).toBe(5);
    expect(first.contacts).toHaveLength(3);
    expect(first.contacts[0]).toEqual({
      resourceName: MARTA,
      etag: people.contacts.get(MARTA)?.etag,
      name: 'Marta Gómez',
      givenName: 'Marta',
      familyName: 'Gómez',
      email: 'marta.gomez@example.com',
      phone: '+34 612 345 678',
      organization: 'Acme Corp',
      jobTitle: 'Product Manager',
      address: 'Calle Mayor 5, 28013 Madrid, Spain',
      notes: 'Met at DevConf 2023',
    });

    h.api.clearRequests();
    const second = c.ok(await h.call('contacts_list', { max_results: 3, page_token: first.nextPageToken }));
    expect(c.request(0).query.get('pageToken')).toBe(first.nextPageToken);
    expect(second.contacts.map((c: { name: string }) => c.name)).toEqual(['Bob Li', 'Zoe Park']);
    expect(second.nextPageToken).toBeUndefined();

    h.api.clearRequests();
    c.ok(await h.call('contacts_list'));
    expect(c.request(0).query.get('pageSize')).toBe('20');
    c.apiError(await h.call('contacts_list', { page_token: 'not-a-token' }), 400);
  });

  it('contacts_search: searchContacts with query, readMask and 10 results by default; prefix matches on names and emails', async () => {
    const result = c.ok(await h.call('contacts_search', { query: 'mar' }));
    expect(c.sent()).toEqual(['GET /v1/people:searchContacts']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ query: 'mar', pageSize: '10', readMask: FIELDS });
    expect(result.contacts.map((c: { name: string }) => c.name)).toEqual(['Marta Gómez', 'Mariana Costa']);

    h.api.clearRequests();
    const byEmail = c.ok(await h.call('contacts_search', { query: 'john.apple', max_results: 5 }));
    expect(c.request(0).query.get('pageSize')).toBe('5');
    expect(byEmail.contacts).toEqual([expect.objectContaining({ resourceName: JOHN, email: 'john.appleseed@example.net' })]);
    expect(c.ok(await h.call('contacts_search', { query: 'nobody' }))).toEqual({ contacts: [] });
    c.invalid(await h.call('contacts_search', {}));
  });

  it('contacts_get: the person by resource name, the slash kept in the path; unknown is 404', async () => {
    const john = c.ok(await h.call('contacts_get', { resource_name: JOHN }));
    expect(c.sent()).toEqual([`GET /v1/${JOHN}`]);
    expect(c.request(0).query.get('personFields')).toBe(FIELDS);
    expect(john).toMatchObject({ resourceName: JOHN, givenName: 'John', familyName: 'Appleseed', phone: '+1 408 555 0100' });

    c.apiError(await h.call('contacts_get', { resource_name: 'people/c000' }), 404);
    c.invalid(await h.call('contacts_get', {}));
  });

  it('contacts_list_directory: searchDirectoryPeople with the domain-profile source the API requires', async () => {
    const result = c.ok(await h.call('contacts_list_directory', { query: 'le' }));
    expect(c.sent()).toEqual(['GET /v1/people:searchDirectoryPeople']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ query: 'le', pageSize: '10', readMask: FIELDS, sources: 'DIRECTORY_SOURCE_TYPE_DOMAIN_PROFILE' });
    expect(result.people).toEqual([
      expect.objectContaining({ resourceName: 'people/112233445566778899001', name: 'Léa Martin', jobTitle: 'Head of Sales' }),
      expect.objectContaining({ resourceName: 'people/112233445566778899002', name: 'Léo Dubois', phone: '+33 1 23 45 67 89' }),
    ]);
    c.invalid(await h.call('contacts_list_directory', { query: 'tom', max_results: 501 }));
  });

  it('contacts_list_directory: page_token takes the nextPageToken of one call to the next page', async () => {
    const first = c.ok(await h.call('contacts_list_directory', { query: 'le', max_results: 1 }));
    expect(first.people.map((p: { name: string }) => p.name)).toEqual(['Léa Martin']);
    expect(first.nextPageToken).toEqual(expect.any(String));
    h.api.clearRequests();
    const second = c.ok(await h.call('contacts_list_directory', { query: 'le', max_results: 1, page_token: first.nextPageToken }));
    expect(c.request(0).query.get('pageToken')).toBe(first.nextPageToken);
    expect(second.people.map((p: { name: string }) => p.name)).toEqual(['Léo Dubois']);
    expect(second.nextPageToken).toBeUndefined();
  });
});

describe('J8 google_contacts: changing contacts', () => {
  it('contacts_create: names, a home email, a mobile phone and the organization; the new contact comes back', async () => {
    const created = c.ok(
      await h.call('contacts_create', {
        given_name: 'Nina',
        family_name: 'Berg',
        email: 'nina@example.se',
        phone: '+46 70 123 45 67',
        organization: 'Spotify',
        job_title: 'Designer',
      }),
    );
    expect(c.sent()).toEqual(['POST /v1/people:createContact']);
    expect(c.request(0).query.get('personFields')).toBe(FIELDS);
    expect(c.body(0)).toEqual({
      names: [{ givenName: 'Nina', familyName: 'Berg' }],
      emailAddresses: [{ value: 'nina@example.se', type: 'home' }],
      phoneNumbers: [{ value: '+46 70 123 45 67', type: 'mobile' }],
      organizations: [{ name: 'Spotify', title: 'Designer' }],
    });
    expect(created).toMatchObject({
      resourceName: expect.stringMatching(/^people\/c\d+$/),
      name: 'Nina Berg',
      email: 'nina@example.se',
      organization: 'Spotify',
      jobTitle: 'Designer',
    });
    expect(people.contacts.get(created.resourceName)?.phoneNumbers?.[0]).toMatchObject({ value: '+46 70 123 45 67', canonicalForm: '+46701234567', formattedType: 'Mobile' });

    h.api.clearRequests();
    const bare = c.ok(await h.call('contacts_create', { given_name: 'Solo' }));
    expect(c.body(0)).toEqual({ names: [{ givenName: 'Solo' }] });
    expect(bare).toMatchObject({ name: 'Solo', givenName: 'Solo' });
    c.invalid(await h.call('contacts_create', { family_name: 'Nobody' }));
  });

  it('contacts_update: GET, then PATCH :updateContact with the etag and only the changed fields; the etag changes', async () => {
    const before = people.contacts.get(MARTA)?.etag;
    const updated = c.ok(await h.call('contacts_update', { resource_name: MARTA, family_name: 'Gómez Ruiz', email: 'marta@gomez.example' }));
    expect(c.sent()).toEqual([`GET /v1/${MARTA}`, `PATCH /v1/${MARTA}:updateContact`]);
    expect(c.request(1).query.get('updatePersonFields')).toBe('names,emailAddresses');
    expect(c.body(1)).toEqual({
      etag: before,
      names: [{ givenName: 'Marta', familyName: 'Gómez Ruiz' }],
      emailAddresses: [
        { value: 'marta@gomez.example', type: 'home' },
        { value: 'mgomez@acme.example', type: 'work' },
      ],
    });
    expect(updated).toMatchObject({ name: 'Marta Gómez Ruiz', email: 'marta@gomez.example', phone: '+34 612 345 678', organization: 'Acme Corp' });
    expect(updated.etag).not.toBe(before);
    expect(people.contacts.get(MARTA)?.etag).toBe(updated.etag);

    h.api.clearRequests();
    const phoned = c.ok(await h.call('contacts_update', { resource_name: 'people/c1029384756473829100', phone: '+351 912 000 111' }));
    expect(c.request(1).query.get('updatePersonFields')).toBe('phoneNumbers');
    expect(c.body(1).phoneNumbers).toEqual([{ value: '+351 912 000 111', type: 'mobile' }]);
    expect(phoned).toMatchObject({ name: 'Mariana Costa', phone: '+351 912 000 111', email: 'mariana.costa@example.org' });

    h.api.clearRequests();
    const nothing = await h.call('contacts_update', { resource_name: MARTA });
    expect(nothing.status === 'error' && nothing.message).toMatch(/Nothing to update/);
    expect(c.sent()).toEqual([`GET /v1/${MARTA}`]);
    c.apiError(await h.call('contacts_update', { resource_name: 'people/c000', given_name: 'X' }), 404);
  });

  it('the fake refuses an updateContact PATCH without the current etag (so the tool must send it)', async () => {
    const stale = await rawPatch(`/v1/${JOHN}:updateContact?updatePersonFields=names`, { etag: '%stale', names: [{ givenName: 'Jon' }] });
    expect(stale).toMatchObject({ status: 400, error: { status: 'FAILED_PRECONDITION' } });
    const missing = await rawPatch(`/v1/${JOHN}:updateContact?updatePersonFields=names`, { names: [{ givenName: 'Jon' }] });
    expect(missing).toMatchObject({ status: 400, error: { status: 'INVALID_ARGUMENT' } });
    const current = people.contacts.get(JOHN)?.etag;
    const noMask = await rawPatch(`/v1/${JOHN}:updateContact`, { etag: current, names: [{ givenName: 'Jon' }] });
    expect(noMask.status).toBe(400);
    expect(people.contacts.get(JOHN)?.names?.[0]?.givenName).toBe('John');
  });

  it('contacts_delete: DELETE :deleteContact; the contact is gone; a second delete is 404', async () => {
    const victim = c.ok(await h.call('contacts_create', { given_name: 'Temp' }));
    h.api.clearRequests();
    expect(c.ok(await h.call('contacts_delete', { resource_name: victim.resourceName }))).toEqual({ success: true, deleted: victim.resourceName });
    expect(c.sent()).toEqual([`DELETE /v1/${victim.resourceName}:deleteContact`]);
    expect(people.contacts.has(victim.resourceName)).toBe(false);
    c.apiError(await h.call('contacts_delete', { resource_name: victim.resourceName }), 404);
  });
});

/** A raw request to the fake (no tool in between), to check what the fake itself refuses. */
async function rawPatch(pathAndQuery: string, json: unknown): Promise<{ status: number; error: { status: string } }> {
  const client = new SafeFetch({ proxyUrl: h.api.proxyUrl, caCertificates: [h.api.caCertificate] });
  try {
    const res = await client.request({
      url: `https://people.googleapis.com${pathAndQuery}`,
      method: 'PATCH',
      headers: { authorization: BEARER, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    return { status: res.status, ...(JSON.parse(Buffer.from(res.body).toString('utf8')) as { error: { status: string } }) };
  } finally {
    await client.close();
  }
}
