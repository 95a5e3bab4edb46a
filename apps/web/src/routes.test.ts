import { describe, expect, test } from '@jest/globals';
import { homeRedirect, parseRoute, routeHref, type Route } from './routes';

describe('S6 hash routes', () => {
  test.each<[string, Route]>([
    ['', { name: 'chat' }],
    ['#/', { name: 'chat' }],
    ['#/sessions/abc', { name: 'chat', sessionId: 'abc' }],
    ['#/sessions/a%20b', { name: 'chat', sessionId: 'a b' }],
    ['#/sessions/abc/audit', { name: 'audit', sessionId: 'abc' }],
    ['#/new', { name: 'new' }],
    ['#/new/extra', { name: 'not-found', hash: '#/new/extra' }],
    ['#/groups', { name: 'groups' }],
    ['#/groups?session=s%2F1', { name: 'groups', sessionId: 's/1' }],
    ['#/settings', { name: 'settings', tab: 'providers' }],
    ['#/settings/tools', { name: 'settings', tab: 'tools' }],
    ['#/settings/nope', { name: 'not-found', hash: '#/settings/nope' }],
    ['#/sessions/abc/other', { name: 'not-found', hash: '#/sessions/abc/other' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  test('every route survives a round trip through its href', () => {
    const routes: Route[] = [
      { name: 'chat' },
      { name: 'chat', sessionId: 'id with/slash' },
      { name: 'audit', sessionId: 'x' },
      { name: 'new' },
      { name: 'groups' },
      { name: 'groups', sessionId: 'y&z' },
      { name: 'settings', tab: 'agents' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });

  test('#/ goes to the newest session only while the page is still at #/ (a session chosen while the list loaded wins)', () => {
    expect(homeRedirect('', 'newest')).toBe('#/sessions/newest');
    expect(homeRedirect('#/', 'new est')).toBe('#/sessions/new%20est');
    expect(homeRedirect('#/', undefined)).toBeUndefined();
    expect(homeRedirect('#/sessions/just-created', 'newest')).toBeUndefined();
    expect(homeRedirect('#/settings/tools', 'newest')).toBeUndefined();
  });
});
