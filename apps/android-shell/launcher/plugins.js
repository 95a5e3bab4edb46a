// @ts-check
/**
 * Access to @capacitor/preferences, loaded as a plain script (vendor/*.js, see index.html).
 * A missing script is a packaging error: fail loudly rather than silently forget settings.
 *
 * Android's Back button is handled natively (MainActivity.java), not here: on the server's own
 * pages no Capacitor script runs, so a JavaScript listener could not cover them.
 */

/** @returns {import('./shell-settings.js').PreferencesApi} */
export function preferences() {
  const api = window.capacitorPreferences?.Preferences;
  if (!api) throw new Error('vendor/capacitor-preferences.js did not load: rebuild the app (pnpm --filter @oneclaw/android-shell build).');
  return api;
}
