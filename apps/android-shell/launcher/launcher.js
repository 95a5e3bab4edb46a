// @ts-check
/**
 * The app's start page (https://localhost/index.html). First start: asks for the server address,
 * the token and which UI to show, then opens it. Later starts: opens the saved choice at once.
 * `index.html?change` (the offline page's "Change server", and what Android's Back opens from the
 * first page of a UI, see MainActivity.java) and Back from the UI show the form.
 */
import { preferences } from './plugins.js';
import {
  BUNDLED_UI_PATH,
  ShellInputError,
  checkBundledConnection,
  parseServerAddress,
  serverEntryUrl,
  settingsStore,
  signInBundledUi,
  startAction,
  validateToken,
} from './shell-settings.js';

const store = settingsStore(preferences());

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`launcher: #${id} is missing from index.html`);
  return found;
}

const opening = element('opening');
const openingText = element('opening-text');
const form = /** @type {HTMLFormElement} */ (element('setup'));
const address = /** @type {HTMLInputElement} */ (element('address'));
const tokenInput = /** @type {HTMLInputElement} */ (element('token'));
const errorBox = element('error');
const connect = /** @type {HTMLButtonElement} */ (element('connect'));
element('app-origin').textContent = window.location.origin;

/** @param {import('./shell-settings.js').ShellSettings | undefined} settings */
function showForm(settings) {
  opening.hidden = true;
  form.hidden = false;
  connect.disabled = false;
  if (settings) {
    address.value = settings.serverUrl;
    const radio = form.querySelector(`input[name="mode"][value="${settings.mode}"]`);
    if (radio instanceof HTMLInputElement) radio.checked = true;
  }
  address.focus();
}

/** @param {string} text */
function showOpening(text) {
  form.hidden = true;
  opening.hidden = false;
  openingText.textContent = text;
}

/** @param {string | undefined} message @param {HTMLInputElement} [field] */
function showError(message, field) {
  errorBox.hidden = !message;
  errorBox.textContent = message ?? '';
  address.setAttribute('aria-invalid', String(field === address));
  tokenInput.setAttribute('aria-invalid', String(field === tokenInput));
  field?.focus();
}

/** @returns {'server' | 'bundled'} */
function selectedMode() {
  const checked = form.querySelector('input[name="mode"]:checked');
  return checked instanceof HTMLInputElement && checked.value === 'bundled' ? 'bundled' : 'server';
}

// A pasted sign-in link carries the token: move it into the token field right away, so the
// address field shows only the address.
address.addEventListener('change', () => {
  try {
    const parsed = parseServerAddress(address.value);
    if (parsed.token) {
      tokenInput.value = parsed.token;
      address.value = parsed.base;
    }
  } catch {
    // Reported on submit, where the message has a place.
  }
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});

async function submit() {
  showError(undefined);
  const mode = selectedMode();
  let base;
  let token;
  try {
    const parsed = parseServerAddress(address.value);
    base = parsed.base;
    token = validateToken(tokenInput.value || parsed.token || '', mode);
  } catch (error) {
    if (error instanceof ShellInputError) return showError(error.message, error.field === 'address' ? address : tokenInput);
    throw error;
  }
  connect.disabled = true;
  try {
    if (mode === 'bundled') {
      // Check before leaving this page, so a CORS or token problem is explained here rather than
      // as a bare network error inside the UI. `token` is defined: validateToken requires it here.
      const result = await checkBundledConnection(window.fetch.bind(window), base, /** @type {string} */ (token), window.location.origin);
      if (!result.ok) return showError(result.message);
      signInBundledUi(window.localStorage, base, /** @type {string} */ (token));
      await store.save({ mode, serverUrl: base });
      showOpening('Opening the bundled UI…');
      window.location.assign(BUNDLED_UI_PATH);
      return;
    }
    // Saved before navigating: in the app, the native rule that keeps this server's pages inside
    // the WebView reads the saved address when the navigation starts.
    await store.save({ mode, serverUrl: base });
    showOpening(`Connecting to ${base}…`);
    // No reachability check first: the server's security headers (CORP, no CORS) hide a live
    // server from a cross-origin probe. If the page cannot load, Capacitor shows offline.html.
    window.location.assign(serverEntryUrl(base, token));
  } finally {
    connect.disabled = false;
  }
}

/** True when this page was reached with Back/Forward rather than opened. */
function reachedByHistory() {
  const entry = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0]);
  return entry?.type === 'back_forward';
}

async function start() {
  const settings = await store.load();
  const action = startAction({ settings, search: window.location.search, cameBack: reachedByHistory() });
  if (action.kind === 'form') return showForm(settings);
  showOpening(settings?.mode === 'server' ? `Connecting to ${settings.serverUrl}…` : 'Opening the bundled UI…');
  window.location.assign(action.url);
}

// Restored from the back/forward cache (Back from the UI): the page does not run again, so show
// the form here; otherwise it would still say "Connecting…".
window.addEventListener('pageshow', (event) => {
  if (event.persisted) void store.load().then(showForm);
});

void start().catch((error) => {
  showForm(undefined);
  showError(`The app could not read its saved settings: ${error instanceof Error ? error.message : String(error)}`);
});
