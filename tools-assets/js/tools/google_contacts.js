// Google Contacts tools: People API v1 (https://developers.google.com/people/api/rest).
var google_api = lib('google_api');

var BASE = 'https://people.googleapis.com/v1';
var API = 'People';
var PERSON_FIELDS = 'names,emailAddresses,phoneNumbers,organizations,biographies,addresses';

/** `people/c123` (or just `c123`) as a URL path, keeping the slash between the segments. */
function _personUrl(resourceName) {
  var name = String(resourceName).replace(/^\/+/, '');
  if (name.indexOf('/') < 0) name = 'people/' + name;
  return BASE + '/' + name.split('/').map(encodeURIComponent).join('/');
}

function _first(list) {
  if (!list || list.length === 0) return undefined;
  for (var i = 0; i < list.length; i++) if (list[i].metadata && list[i].metadata.primary) return list[i];
  return list[0];
}

function _contact(person) {
  var name = _first(person.names) || {};
  var email = _first(person.emailAddresses);
  var phone = _first(person.phoneNumbers);
  var org = _first(person.organizations) || {};
  var bio = _first(person.biographies);
  var address = _first(person.addresses);
  return {
    resourceName: person.resourceName,
    etag: person.etag,
    name: name.displayName,
    givenName: name.givenName,
    familyName: name.familyName,
    email: email && email.value,
    phone: phone && phone.value,
    organization: org.name,
    jobTitle: org.title,
    address: address && address.formattedValue,
    notes: bio && bio.value,
  };
}

async function contactsList(params) {
  var data = await google_api.request(API, 'GET', BASE + '/people/me/connections', {
    query: { personFields: PERSON_FIELDS, pageSize: params.max_results || 20, pageToken: params.page_token },
  });
  return {
    contacts: (data.connections || []).map(_contact),
    nextPageToken: data.nextPageToken,
    totalPeople: data.totalPeople,
  };
}

async function contactsSearch(params) {
  var data = await google_api.request(API, 'GET', BASE + '/people:searchContacts', {
    query: { query: params.query, pageSize: params.max_results || 10, readMask: PERSON_FIELDS },
  });
  return {
    contacts: (data.results || []).map(function (result) {
      return _contact(result.person);
    }),
  };
}

async function contactsGet(params) {
  return _contact(await google_api.request(API, 'GET', _personUrl(params.resource_name), { query: { personFields: PERSON_FIELDS } }));
}

async function contactsCreate(params) {
  var person = { names: [{ givenName: params.given_name, familyName: params.family_name }] };
  if (params.email) person.emailAddresses = [{ value: params.email, type: 'home' }];
  if (params.phone) person.phoneNumbers = [{ value: params.phone, type: 'mobile' }];
  if (params.organization || params.job_title) person.organizations = [{ name: params.organization, title: params.job_title }];
  var created = await google_api.request(API, 'POST', BASE + '/people:createContact', { query: { personFields: PERSON_FIELDS }, body: person });
  return _contact(created);
}

/** The list with its primary (or first) entry's value replaced, or a new one-entry list. */
function _replaceFirst(list, value, type) {
  var entries = (list || []).map(function (entry) {
    return { value: entry.value, type: entry.type };
  });
  var primary = _first(list);
  var index = primary ? list.indexOf(primary) : -1;
  if (index < 0) entries.unshift({ value: value, type: type });
  else entries[index].value = value;
  return entries;
}

async function contactsUpdate(params) {
  var url = _personUrl(params.resource_name);
  var current = await google_api.request(API, 'GET', url, { query: { personFields: 'names,emailAddresses,phoneNumbers' } });
  var person = { etag: current.etag };
  var fields = [];
  if (params.given_name !== undefined || params.family_name !== undefined) {
    var name = _first(current.names) || {};
    person.names = [{
      givenName: params.given_name !== undefined ? params.given_name : name.givenName,
      familyName: params.family_name !== undefined ? params.family_name : name.familyName,
    }];
    fields.push('names');
  }
  if (params.email !== undefined) {
    person.emailAddresses = _replaceFirst(current.emailAddresses, params.email, 'home');
    fields.push('emailAddresses');
  }
  if (params.phone !== undefined) {
    person.phoneNumbers = _replaceFirst(current.phoneNumbers, params.phone, 'mobile');
    fields.push('phoneNumbers');
  }
  if (fields.length === 0) throw new Error('Nothing to update: give at least one of given_name, family_name, email or phone.');
  var updated = await google_api.request(API, 'PATCH', url + ':updateContact', {
    query: { updatePersonFields: fields.join(','), personFields: PERSON_FIELDS },
    body: person,
  });
  return _contact(updated);
}

async function contactsDelete(params) {
  await google_api.request(API, 'DELETE', _personUrl(params.resource_name) + ':deleteContact');
  return { success: true, deleted: params.resource_name };
}

async function contactsListDirectory(params) {
  var data = await google_api.request(API, 'GET', BASE + '/people:searchDirectoryPeople', {
    query: {
      query: params.query,
      pageSize: params.max_results || 10,
      pageToken: params.page_token,
      readMask: PERSON_FIELDS,
      sources: 'DIRECTORY_SOURCE_TYPE_DOMAIN_PROFILE',
    },
  });
  return { people: (data.people || []).map(_contact), nextPageToken: data.nextPageToken };
}
