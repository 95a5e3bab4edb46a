package ai.oneclaw.shell;

import android.content.Context;
import android.content.SharedPreferences;
import android.net.Uri;
import com.getcapacitor.Plugin;
import com.getcapacitor.annotation.CapacitorPlugin;

/**
 * Keeps the pages of the OneClaw server the user chose inside the WebView.
 *
 * Why: the app starts at its own launcher page (https://localhost). Capacitor's navigation rule
 * (Bridge.launchIntent) opens every other host in the system browser, which is right for links in
 * chat replies but wrong for the server's own UI. Capacitor's "server.allowNavigation" is fixed at
 * build time, and the server address is only known when the user types it, so this plugin answers
 * that one question at run time. It has no methods for JavaScript to call.
 *
 * Not compiled on the machine that wrote it (no Android SDK there); read against
 * @capacitor/android 7.6.9: Plugin.shouldOverrideLoad and Bridge.launchIntent. See docs/android.md.
 */
@CapacitorPlugin(name = "OneClawServerNavigation")
public class ServerNavigationPlugin extends Plugin {

    // @capacitor/preferences 7 stores values in this SharedPreferences file (its default group),
    // under the key exactly as JavaScript passes it. The launcher (launcher/shell-settings.js,
    // PREF_MODE and PREF_SERVER_URL) writes both keys before it navigates to the server.
    static final String PREFERENCES_FILE = "CapacitorStorage";
    static final String MODE_KEY = "oneclaw.shell.mode";
    static final String SERVER_URL_KEY = "oneclaw.shell.serverUrl";
    static final String SERVER_MODE = "server";

    /**
     * Called by Bridge.launchIntent for every navigation the page starts (links, location changes,
     * redirects), before Capacitor's own rule. FALSE loads the URL in the WebView; null leaves the
     * decision to Capacitor (its own host stays inside, other hosts open in the browser).
     */
    @Override
    public Boolean shouldOverrideLoad(Uri url) {
        // Read on every navigation, not cached: the launcher changes the values while the app
        // runs. SharedPreferences keeps the file in memory and Preferences.set updates that copy
        // before it answers JavaScript, so the launcher's write is visible here at once.
        SharedPreferences preferences = getContext().getSharedPreferences(PREFERENCES_FILE, Context.MODE_PRIVATE);
        // In the bundled-UI mode the server's pages are never loaded in the WebView.
        if (!SERVER_MODE.equals(preferences.getString(MODE_KEY, null))) {
            return null;
        }
        String serverUrl = preferences.getString(SERVER_URL_KEY, null);
        if (serverUrl == null) {
            return null;
        }
        String serverHost = Uri.parse(serverUrl).getHost();
        String host = url.getHost();
        String scheme = url.getScheme();
        // Host only, as Capacitor's allowNavigation matches: a server that redirects http to
        // https, or moves to another port behind a proxy, stays inside the app.
        boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
        if (web && serverHost != null && serverHost.equalsIgnoreCase(host)) {
            return Boolean.FALSE;
        }
        return null;
    }
}
