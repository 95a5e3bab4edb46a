import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { SessionList } from '../chat/session-list';
import { MenuIcon, SignOutIcon } from '../icons/icons';
import type { Route } from '../routes';
import { SignOutDialog } from './sign-out-dialog';

/**
 * The frame around every page: a top bar with the main places, and the session list. On a
 * phone the list is a drawer behind the menu button (closed again by choosing a session or
 * pressing Escape); from 900 px wide it stays open beside the page.
 */
export function AppShell({ route, onSignOut, children }: { route: Route; onSignOut: () => void; children: ComponentChildren }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
  const currentSessionId = route.name === 'chat' || route.name === 'audit' ? route.sessionId : undefined;

  // Any navigation closes the drawer on a phone.
  useEffect(() => setDrawerOpen(false), [route]);
  // Listen for Escape all the time, not only while the drawer is open: effects run after paint,
  // so a listener added on opening could miss an Escape pressed right after the click.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setDrawerOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div class={`shell${drawerOpen ? ' shell--drawer-open' : ''}`}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button
          type="button"
          class="icon-button topbar__menu"
          aria-label="Sessions"
          aria-expanded={drawerOpen}
          aria-controls="session-drawer"
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          <MenuIcon />
        </button>
        <a class="topbar__brand" href="#/">
          OneClaw
        </a>
        <nav class="topbar__nav" aria-label="Main">
          <a href="#/" aria-current={route.name === 'chat' || route.name === 'audit' || route.name === 'new' ? 'page' : undefined}>
            Chat
          </a>
          <a href={currentSessionId ? `#/groups?session=${encodeURIComponent(currentSessionId)}` : '#/groups'} aria-current={route.name === 'groups' ? 'page' : undefined}>
            Groups
          </a>
          <a href="#/settings/providers" aria-current={route.name === 'settings' ? 'page' : undefined}>
            Settings
          </a>
        </nav>
        {/* On a phone the words give way to the icon so the three places fit; the name stays. Signing out asks first. */}
        <button type="button" class="button button--quiet topbar__signout" aria-label="Sign out" aria-haspopup="dialog" title="Sign out" onClick={() => setConfirmingSignOut(true)}>
          <SignOutIcon class="topbar__signout-icon" />
          <span class="topbar__signout-text">Sign out</span>
        </button>
      </header>
      <aside id="session-drawer" class="drawer" aria-label="Sessions">
        <SessionList currentSessionId={currentSessionId} />
      </aside>
      {drawerOpen && <div class="drawer-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" />}
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
      {confirmingSignOut && <SignOutDialog onConfirm={onSignOut} onCancel={() => setConfirmingSignOut(false)} />}
    </div>
  );
}
