import { useMemo, useState } from 'preact/hooks';
import { ApiContext } from './api/api-context';
import { ApiClient } from './api/client';
import { forgetConnection, loadConnection, saveConnection, type Connection } from './api/connection';
import { AuditPage } from './audit/audit-page';
import { ChatPage } from './chat/chat-page';
import { NewSessionDraft } from './chat/new-session-draft';
import { GroupsPage } from './groups/groups-page';
import { AppShell } from './layout/app-shell';
import { SignIn } from './layout/sign-in';
import { useRoute, type Route } from './routes';
import { SettingsPage } from './settings/settings-page';

/** Signs in (token, and server address when not served by the server), then shows the app. */
export function App() {
  const [connection, setConnection] = useState<Connection | undefined>(() =>
    loadConnection(window.localStorage, window.location, (hash) => history.replaceState(null, '', `${location.pathname}${location.search}${hash}`)),
  );
  const [signInNote, setSignInNote] = useState<string | undefined>();
  const api = useMemo(
    () =>
      connection
        ? new ApiClient(connection, () => {
            // The token was refused (rotated, or typed wrong): ask again, keep the address.
            forgetConnection(window.localStorage);
            setSignInNote("The server refused the saved token. Enter the current one (it is in the api-token file of the server's data directory).");
            setConnection(undefined);
          })
        : undefined,
    [connection],
  );

  if (!connection || !api) {
    return (
      <SignIn
        note={signInNote}
        onSignedIn={(next) => {
          saveConnection(window.localStorage, next);
          setSignInNote(undefined);
          setConnection(next);
        }}
      />
    );
  }
  return (
    <ApiContext.Provider value={api}>
      <Routed
        onSignOut={() => {
          forgetConnection(window.localStorage);
          setConnection(undefined);
        }}
      />
    </ApiContext.Provider>
  );
}

function Routed({ onSignOut }: { onSignOut: () => void }) {
  const route = useRoute();
  return (
    <AppShell route={route} onSignOut={onSignOut}>
      <Page route={route} />
    </AppShell>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'chat':
      return <ChatPage sessionId={route.sessionId} />;
    case 'new':
      return <NewSessionDraft />;
    case 'audit':
      return <AuditPage sessionId={route.sessionId} />;
    case 'groups':
      return <GroupsPage sessionId={route.sessionId} />;
    case 'settings':
      return <SettingsPage tab={route.tab} />;
    case 'not-found':
      return (
        <section class="page" aria-labelledby="not-found-title">
          <h1 id="not-found-title">Nothing here</h1>
          <p>
            There is no page at <code>{route.hash}</code>. <a href="#/">Go to the chat</a>.
          </p>
        </section>
      );
  }
}
