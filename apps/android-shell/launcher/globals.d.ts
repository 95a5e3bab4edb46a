// Globals defined by the plain-script builds of Capacitor and its Preferences plugin (vendor/*.js,
// see index.html). Only what the launcher uses; types only, not copied into the app.
import type { PreferencesApi } from './shell-settings.js';

declare global {
  interface Window {
    capacitorPreferences?: { Preferences: PreferencesApi };
  }
}
