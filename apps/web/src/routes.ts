import { useEffect, useState } from 'preact/hooks';

/**
 * The UI's places, kept in the URL fragment: a reload, the back button and a shared link land
 * on the same screen, and hash routes need nothing from the server (they also work from the
 * Android shell's local files).
 */
export type SettingsTab = 'providers' | 'agents' | 'tools';
export const SETTINGS_TABS: readonly SettingsTab[] = ['providers', 'agents', 'tools'];

export type Route =
  | { readonly name: 'chat'; readonly sessionId?: string }
  /** A new session not created yet: the agent picker and the composer; the first send creates it. */
  | { readonly name: 'new' }
  | { readonly name: 'audit'; readonly sessionId: string }
  | { readonly name: 'groups'; readonly sessionId?: string }
  | { readonly name: 'settings'; readonly tab: SettingsTab }
  | { readonly name: 'not-found'; readonly hash: string };

export function parseRoute(hash: string): Route {
  const [rawPath = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = rawPath
    .split('/')
    .filter(Boolean)
    .map((p) => safeDecode(p));
  const params = new URLSearchParams(query);
  const [first, second, third] = parts;
  if (parts.length === 0) return { name: 'chat' };
  if (first === 'new' && parts.length === 1) return { name: 'new' };
  if (first === 'sessions' && second !== undefined && parts.length === 2) return { name: 'chat', sessionId: second };
  if (first === 'sessions' && second !== undefined && third === 'audit' && parts.length === 3) return { name: 'audit', sessionId: second };
  if (first === 'groups' && parts.length === 1) {
    const sessionId = params.get('session');
    return sessionId ? { name: 'groups', sessionId } : { name: 'groups' };
  }
  if (first === 'settings' && parts.length <= 2) {
    const tab = (second ?? 'providers') as SettingsTab;
    if (SETTINGS_TABS.includes(tab)) return { name: 'settings', tab };
  }
  return { name: 'not-found', hash };
}

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'chat':
      return route.sessionId ? `#/sessions/${encodeURIComponent(route.sessionId)}` : '#/';
    case 'new':
      return '#/new';
    case 'audit':
      return `#/sessions/${encodeURIComponent(route.sessionId)}/audit`;
    case 'groups':
      return route.sessionId ? `#/groups?session=${encodeURIComponent(route.sessionId)}` : '#/groups';
    case 'settings':
      return `#/settings/${route.tab}`;
    case 'not-found':
      return route.hash || '#/';
  }
}

/**
 * Where `#/` takes the page once the session list is in: the newest session, but only while the
 * page is still at `#/`. The list can arrive after the user moved on (clicked "New session"
 * while it loaded); that choice wins. With no session at all `#/` shows the new-session draft.
 */
export function homeRedirect(currentHash: string, newestSessionId: string | undefined): string | undefined {
  const here = parseRoute(currentHash);
  if (newestSessionId === undefined || here.name !== 'chat' || here.sessionId !== undefined) return undefined;
  return routeHref({ name: 'chat', sessionId: newestSessionId });
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}

/** The current route, updated on every fragment change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
