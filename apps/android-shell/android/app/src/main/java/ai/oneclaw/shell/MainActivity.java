package ai.oneclaw.shell;

import android.net.Uri;
import android.os.Bundle;
import android.webkit.WebView;
import androidx.activity.OnBackPressedCallback;
import com.getcapacitor.BridgeActivity;

/**
 * Capacitor's activity plus two small additions: the local plugin that keeps the chosen server's
 * pages inside the WebView (ServerNavigationPlugin), and Android's Back button. Everything else
 * (the WebView, file choosers, other hosts opening in the browser, the offline page through
 * server.errorPath) is Capacitor's own behaviour, configured in capacitor.config.json.
 *
 * Not compiled on the machine that wrote it (no Android SDK there); read against
 * @capacitor/android 7.6.9 (BridgeActivity, Bridge). See docs/android.md.
 */
public class MainActivity extends BridgeActivity {

    // The launcher's settings form, on the app's own origin (Bridge.getLocalUrl(), https://localhost).
    private static final String LAUNCHER_FORM_PATH = "/index.html?change";

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        // Before super.onCreate(): BridgeActivity.onCreate() builds the Bridge from the plugins
        // registered so far, then starts loading the launcher.
        registerPlugin(ServerNavigationPlugin.class);
        super.onCreate(savedInstanceState);
        // No bridge when the device has no usable WebView: BridgeActivity then shows its own
        // message and there is no page to go back in.
        if (bridge == null) {
            return;
        }
        // Registered after super.onCreate(), so this callback runs first (the dispatcher asks the
        // most recently added one). No @capacitor/app: its Back handling walks the history but
        // does nothing on the first page, and cannot reach the launcher (see onBack).
        getOnBackPressedDispatcher()
            .addCallback(
                this,
                new OnBackPressedCallback(true) {
                    @Override
                    public void handleOnBackPressed() {
                        onBack(this);
                    }
                }
            );
    }

    /**
     * Back, in order:
     * 1. On the launcher (the app's home): leave the app, as Back does on any app's first screen.
     * 2. On the offline page: open the launcher's form. Going back would reload the failed page,
     *    which fails again and brings the user straight back here.
     * 3. Web history left: go back in it (pages of the UI, then the launcher after a first setup).
     * 4. Otherwise, the first page of a UI: open the launcher's form, so the server can always be
     *    changed. The launcher is usually not in the history then: it opened the UI without a user
     *    gesture, and Chromium's history manipulation intervention skips such entries, so
     *    WebView.canGoBack() is false.
     */
    private void onBack(OnBackPressedCallback callback) {
        WebView webView = bridge.getWebView();
        String current = webView.getUrl();
        if (isLauncher(current)) {
            // Let Android do its default (finish, or move the task back on Android 12+), then
            // re-arm: the activity may stay alive and come back to the front.
            callback.setEnabled(false);
            getOnBackPressedDispatcher().onBackPressed();
            callback.setEnabled(true);
        } else if (current != null && current.equals(bridge.getErrorUrl())) {
            webView.loadUrl(bridge.getLocalUrl() + LAUNCHER_FORM_PATH);
        } else if (webView.canGoBack()) {
            webView.goBack();
        } else {
            webView.loadUrl(bridge.getLocalUrl() + LAUNCHER_FORM_PATH);
        }
    }

    /** The launcher is index.html at the app's own host: "/", "/index.html", with or without "?change". */
    private boolean isLauncher(String url) {
        if (url == null) {
            return false;
        }
        Uri uri = Uri.parse(url);
        String path = uri.getPath();
        boolean launcherPath = path == null || path.isEmpty() || path.equals("/") || path.equals("/index.html");
        return launcherPath && bridge.getHost().equalsIgnoreCase(uri.getHost());
    }
}
