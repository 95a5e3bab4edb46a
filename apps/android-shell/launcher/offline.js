// @ts-check
/**
 * The page Capacitor shows when the server's page does not load (server.errorPath). It names the
 * saved server and offers to try again or to change the server.
 */
import { preferences } from './plugins.js';
import { serverEntryUrl, settingsStore } from './shell-settings.js';

const store = settingsStore(preferences());
const CHANGE_URL = 'index.html?change';

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`offline: #${id} is missing from offline.html`);
  return found;
}

const saved = store.load();
element('change').addEventListener('click', () => window.location.assign(CHANGE_URL));
// Attached at once (not after the settings arrive), so an early tap is not lost.
element('retry').addEventListener('click', () => {
  void saved.then((settings) => {
    // Only the server mode loads pages from the server; anything else restarts from the launcher.
    window.location.assign(settings?.mode === 'server' ? serverEntryUrl(settings.serverUrl, undefined) : 'index.html');
  });
});
void saved.then((settings) => {
  if (settings?.mode !== 'server') return;
  const url = document.createElement('code');
  url.textContent = settings.serverUrl;
  element('server-url').replaceChildren(url);
});
