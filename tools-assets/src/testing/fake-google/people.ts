import { randomBytes, randomInt } from 'node:crypto';
import { GoogleApiError, requireQuery, type FakeGoogleApi, type GoogleRequest } from '../fake-google-api';
import { pageOf } from './paging';

const HOST = 'people.googleapis.com';

type Entry = Record<string, unknown> & { metadata?: { primary?: boolean; source?: { type: string; id: string } } };

/** A Person resource as the People API returns it (only the fields the fake models). */
export interface Person {
  resourceName: string;
  etag: string;
  metadata: { sources: { type: string; id: string; etag: string; updateTime: string }[]; objectType: 'PERSON' };
  names?: Entry[];
  emailAddresses?: Entry[];
  phoneNumbers?: Entry[];
  organizations?: Entry[];
  biographies?: Entry[];
  addresses?: Entry[];
  [field: string]: unknown;
}

export interface PeopleFake {
  /** The user's contacts by resource name (`people/c…`). */
  readonly contacts: Map<string, Person>;
  /** Profiles of the user's Workspace domain, found by people:searchDirectoryPeople. */
  readonly directory: Person[];
}

/** The person fields the fake knows; any other `personFields`/`readMask` path is refused like an unknown one. */
const MODELLED = ['names', 'emailAddresses', 'phoneNumbers', 'organizations', 'biographies', 'addresses'] as const;
/** Valid paths of the API's masks that the fake stores nothing for (so they are accepted and come back empty). */
const OTHER_FIELDS = [
  'ageRanges',
  'birthdays',
  'calendarUrls',
  'clientData',
  'coverPhotos',
  'events',
  'externalIds',
  'genders',
  'imClients',
  'interests',
  'locales',
  'locations',
  'memberships',
  'metadata',
  'miscKeywords',
  'nicknames',
  'occupations',
  'photos',
  'relations',
  'sipAddresses',
  'skills',
  'urls',
  'userDefined',
];
/** Fields updateContact may change (the reference's list for updatePersonFields). */
const UPDATABLE = [
  'addresses',
  'biographies',
  'birthdays',
  'calendarUrls',
  'clientData',
  'emailAddresses',
  'events',
  'externalIds',
  'genders',
  'imClients',
  'interests',
  'locales',
  'locations',
  'memberships',
  'miscKeywords',
  'names',
  'nicknames',
  'occupations',
  'organizations',
  'phoneNumbers',
  'relations',
  'sipAddresses',
  'urls',
  'userDefined',
];
const SOURCES = ['DIRECTORY_SOURCE_TYPE_DOMAIN_CONTACT', 'DIRECTORY_SOURCE_TYPE_DOMAIN_PROFILE'];

/**
 * A fake of the Google People API v1 contact and directory methods
 * (https://developers.google.com/people/api/rest/v1/people): in-memory contacts (seeded with five)
 * and three directory profiles.
 *
 * As the reference requires, reads need a `personFields` or `readMask` of known paths, search
 * needs `query`, directory search needs `sources` (DIRECTORY_SOURCE_TYPE_…), `updateContact` is a
 * PATCH that needs `updatePersonFields` and the person's current `etag` (400 when it is missing or
 * stale; the etag changes on every update), a contact has at most one name, and unknown resource
 * names are 404. Search is a case-insensitive prefix match on name words, email addresses, phone
 * digits and organisation names.
 */
export function registerPeopleRoutes(api: FakeGoogleApi): PeopleFake {
  const contacts = new Map<string, Person>();
  const directory: Person[] = [];
  seed(contacts, directory);

  const contactOf = (req: GoogleRequest): Person => {
    const name = req.params.resourceName as string;
    // The slash of a resource name is a path separator: `people%2Fc123` is not the same URL.
    if (!req.path.startsWith('/v1/people/')) throw new GoogleApiError(404, 'Requested entity was not found.');
    if (!/^people\/[^/:]+$/.test(name)) throw new GoogleApiError(400, `Resource name "${name}" is not a valid person resource name (people/…).`);
    const person = contacts.get(name);
    if (!person) throw new GoogleApiError(404, 'Requested entity was not found.');
    return person;
  };

  api.route('GET', HOST, '/v1/people/me/connections', (req) => {
    const fields = mask(req, 'personFields', true);
    const all = [...contacts.values()];
    const page = pageOf(all, req, 'pageSize', 100, 1000);
    return {
      json: {
        connections: page.items.map((p) => masked(p, fields)),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        totalPeople: all.length,
        totalItems: all.length,
      },
    };
  });

  api.route('GET', HOST, '/v1/people:searchContacts', (req) => {
    requireQuery(req, ['query']);
    const fields = mask(req, 'readMask', true);
    const size = Math.min(Number(req.query.get('pageSize') ?? '10') || 10, 30);
    const found = [...contacts.values()].filter((p) => matches(p, req.query.get('query') as string)).slice(0, size);
    return { json: found.length > 0 ? { results: found.map((p) => ({ person: masked(p, fields) })) } : {} };
  });

  api.route('GET', HOST, '/v1/people:searchDirectoryPeople', (req) => {
    requireQuery(req, ['query', 'readMask', 'sources']);
    const fields = mask(req, 'readMask', true);
    for (const source of req.query.getAll('sources')) {
      if (!SOURCES.includes(source)) throw new GoogleApiError(400, `Invalid value at 'sources' (type.googleapis.com/google.people.v1.DirectorySourceType), "${source}"`);
    }
    const size = Number(req.query.get('pageSize') ?? '100');
    if (!Number.isInteger(size) || size < 1 || size > 500) throw new GoogleApiError(400, 'pageSize must be between 1 and 500.');
    const found = directory.filter((p) => matches(p, req.query.get('query') as string));
    const page = pageOf(found, req, 'pageSize', 100, 500);
    return { json: { people: page.items.map((p) => masked(p, fields)), ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}), totalSize: found.length } };
  });

  api.route('POST', HOST, '/v1/people:createContact', (req) => {
    const fields = mask(req, 'personFields', false);
    const body = req.json<Record<string, unknown>>();
    if (body.resourceName !== undefined || body.etag !== undefined) throw new GoogleApiError(400, 'A new contact must not have a resourceName or etag.');
    const given = MODELLED.filter((f) => Array.isArray(body[f]) && (body[f] as unknown[]).length > 0);
    if (given.length === 0) throw new GoogleApiError(400, 'Request person must have at least one field set (names, emailAddresses, phoneNumbers, …).');
    const id = `c${randomInt(10 ** 9, 10 ** 10 - 1)}${randomInt(10 ** 9, 10 ** 10 - 1)}`;
    const person = newPerson(`people/${id}`, 'CONTACT');
    for (const field of MODELLED) if (body[field] !== undefined) setField(person, field, body[field]);
    contacts.set(person.resourceName, person);
    return { json: masked(person, fields) };
  });

  api.route('GET', HOST, '/v1/{resourceName*}', (req) => ({ json: masked(contactOf(req), mask(req, 'personFields', true)) }));

  api.route('PATCH', HOST, '/v1/{resourceName*}:updateContact', (req) => {
    const person = contactOf(req);
    requireQuery(req, ['updatePersonFields']);
    const update = (req.query.get('updatePersonFields') as string).split(',').map((f) => f.trim());
    for (const field of update) {
      if (!UPDATABLE.includes(field)) throw new GoogleApiError(400, `Invalid updatePersonFields mask path: "${field}".`);
    }
    const fields = mask(req, 'personFields', false);
    const body = req.json<Record<string, unknown>>();
    if (body.etag === undefined || body.etag === '') throw new GoogleApiError(400, 'Request must set person.etag.');
    if (body.etag !== person.etag) {
      throw new GoogleApiError(400, 'Request person.etag is different than the current person.etag. Clear local cache and get the latest person.', 'FAILED_PRECONDITION');
    }
    if (body.resourceName !== undefined && body.resourceName !== person.resourceName)
      throw new GoogleApiError(400, 'person.resourceName does not match the resource name in the URL.');
    for (const field of update) {
      if (!(MODELLED as readonly string[]).includes(field)) continue;
      if (body[field] === undefined) delete person[field];
      else setField(person, field, body[field]);
    }
    touch(person);
    return { json: masked(person, fields) };
  });

  api.route('DELETE', HOST, '/v1/{resourceName*}:deleteContact', (req) => {
    contacts.delete(contactOf(req).resourceName);
    return { json: {} };
  });

  return { contacts, directory };
}

/** The requested fields of a `personFields`/`readMask` parameter; all modelled fields when optional and absent. */
function mask(req: GoogleRequest, name: string, required: boolean): string[] {
  const value = req.query.get(name);
  if (value === null || value === '') {
    if (required)
      throw new GoogleApiError(
        400,
        `${name} mask is required. Please specify one or more valid paths. Valid paths are documented at https://developers.google.com/people/api/rest/v1/people/get.`,
      );
    return [...MODELLED];
  }
  const fields = value.split(',').map((f) => f.trim().replace(/^person\./, ''));
  for (const field of fields) {
    if (!(MODELLED as readonly string[]).includes(field) && !OTHER_FIELDS.includes(field))
      throw new GoogleApiError(400, `Invalid ${name} mask path: "${field}". Valid paths are documented at https://developers.google.com/people/api/rest/v1/people/get.`);
  }
  return fields;
}

function masked(person: Person, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { resourceName: person.resourceName, etag: person.etag };
  for (const field of fields) if (person[field] !== undefined) out[field] = person[field];
  return out;
}

function matches(person: Person, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return false;
  const words: string[] = [];
  for (const n of person.names ?? [])
    words.push(
      ...String(n.displayName ?? '')
        .toLowerCase()
        .split(/\s+/),
      String(n.displayName ?? '').toLowerCase(),
    );
  for (const e of person.emailAddresses ?? []) words.push(String(e.value).toLowerCase());
  for (const o of person.organizations ?? []) words.push(String(o.name ?? '').toLowerCase());
  const digits = q.replace(/[^\d]/g, '');
  const phoneMatch = digits.length >= 3 && /^[\d\s+().-]+$/.test(q) && (person.phoneNumbers ?? []).some((p) => String(p.value).replace(/[^\d]/g, '').startsWith(digits));
  return phoneMatch || words.some((w) => w !== '' && w.startsWith(q));
}

function newPerson(resourceName: string, sourceType: 'CONTACT' | 'DOMAIN_PROFILE'): Person {
  const id = resourceName.slice('people/'.length);
  const stamp = new Date().toISOString();
  const tag = etag();
  return { resourceName, etag: tag, metadata: { sources: [{ type: sourceType, id, etag: tag, updateTime: stamp }], objectType: 'PERSON' } };
}

function touch(person: Person): void {
  person.etag = etag();
  const source = person.metadata.sources[0];
  if (source) {
    source.etag = person.etag;
    source.updateTime = new Date().toISOString();
  }
}

const FORMATTED: Record<string, string> = { home: 'Home', work: 'Work', mobile: 'Mobile', other: 'Other', main: 'Main', homeFax: 'Home Fax', workFax: 'Work Fax' };

/** Stores a field the way the API echoes it: entry metadata, formatted types, display names. */
function setField(person: Person, field: string, value: unknown): void {
  if (!Array.isArray(value)) throw new GoogleApiError(400, `Invalid value at 'person.${field}': expected a list.`);
  const source = { type: person.metadata.sources[0]?.type ?? 'CONTACT', id: person.resourceName.slice('people/'.length) };
  const entries = (value as Record<string, unknown>[]).map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw new GoogleApiError(400, `Invalid value at 'person.${field}[${i}]'.`);
    const { metadata: _ignored, ...entry } = raw;
    const out: Entry = { metadata: { ...(i === 0 ? { primary: true } : {}), source }, ...entry };
    if (typeof entry.type === 'string') out.formattedType = FORMATTED[entry.type] ?? entry.type;
    return out;
  });
  if (field === 'names') {
    if (entries.length > 1) throw new GoogleApiError(400, 'A contact can have at most one name.');
    for (const name of entries) {
      const given = typeof name.givenName === 'string' ? name.givenName : '';
      const family = typeof name.familyName === 'string' ? name.familyName : '';
      if (given === '' && family === '' && typeof name.unstructuredName !== 'string') throw new GoogleApiError(400, 'A name needs a givenName, familyName or unstructuredName.');
      const display = [given, family].filter(Boolean).join(' ') || String(name.unstructuredName);
      Object.assign(name, { displayName: display, displayNameLastFirst: family && given ? `${family}, ${given}` : display, unstructuredName: display });
    }
  }
  if (field === 'emailAddresses' || field === 'phoneNumbers') {
    for (const entry of entries)
      if (typeof entry.value !== 'string' || entry.value === '') throw new GoogleApiError(400, `Invalid value at 'person.${field}': every entry needs a value.`);
  }
  if (field === 'phoneNumbers') {
    for (const entry of entries) if ((entry.value as string).startsWith('+')) entry.canonicalForm = `+${(entry.value as string).replace(/[^\d]/g, '')}`;
  }
  if (field === 'biographies') for (const entry of entries) entry.contentType ??= 'TEXT_PLAIN';
  person[field] = entries;
}

function etag(): string {
  return `%${randomBytes(18).toString('base64url')}`;
}

function seed(contacts: Map<string, Person>, directory: Person[]): void {
  const add = (target: 'contact' | 'profile', id: string, fields: Record<string, unknown[]>): void => {
    const person = newPerson(`people/${id}`, target === 'contact' ? 'CONTACT' : 'DOMAIN_PROFILE');
    for (const [field, value] of Object.entries(fields)) setField(person, field, value);
    if (target === 'contact') contacts.set(person.resourceName, person);
    else directory.push(person);
  };
  add('contact', 'c4829304756102938475', {
    names: [{ givenName: 'Marta', familyName: 'Gómez' }],
    emailAddresses: [
      { value: 'marta.gomez@example.com', type: 'home' },
      { value: 'mgomez@acme.example', type: 'work' },
    ],
    phoneNumbers: [{ value: '+34 612 345 678', type: 'mobile' }],
    organizations: [{ name: 'Acme Corp', title: 'Product Manager' }],
    biographies: [{ value: 'Met at DevConf 2023' }],
    addresses: [{ formattedValue: 'Calle Mayor 5, 28013 Madrid, Spain', type: 'home' }],
  });
  add('contact', 'c7712093847561029384', {
    names: [{ givenName: 'John', familyName: 'Appleseed' }],
    emailAddresses: [{ value: 'john.appleseed@example.net', type: 'work' }],
    phoneNumbers: [{ value: '+1 408 555 0100', type: 'work' }],
  });
  add('contact', 'c1029384756473829100', {
    names: [{ givenName: 'Mariana', familyName: 'Costa' }],
    emailAddresses: [{ value: 'mariana.costa@example.org', type: 'home' }],
  });
  add('contact', 'c5647382910293847561', {
    names: [{ givenName: 'Bob', familyName: 'Li' }],
    emailAddresses: [{ value: 'bob.li@example.com', type: 'other' }],
    organizations: [{ name: 'Globex', title: 'Engineer' }],
  });
  add('contact', 'c9182736450192837465', {
    names: [{ givenName: 'Zoe', familyName: 'Park' }],
    phoneNumbers: [{ value: '+44 20 7946 0018', type: 'mobile' }],
  });
  add('profile', '112233445566778899001', {
    names: [{ givenName: 'Léa', familyName: 'Martin' }],
    emailAddresses: [{ value: 'lea.martin@example.com', type: 'work' }],
    organizations: [{ name: 'Example Inc.', title: 'Head of Sales' }],
  });
  add('profile', '112233445566778899002', {
    names: [{ givenName: 'Léo', familyName: 'Dubois' }],
    emailAddresses: [{ value: 'leo.dubois@example.com', type: 'work' }],
    phoneNumbers: [{ value: '+33 1 23 45 67 89', type: 'work' }],
  });
  add('profile', '112233445566778899003', {
    names: [{ givenName: 'Tom', familyName: 'Baker' }],
    emailAddresses: [{ value: 'tom.baker@example.com', type: 'work' }],
  });
}
