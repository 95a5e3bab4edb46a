package android.webkit;

public class WebView {
    public String getUrl() { return null; }
    public boolean canGoBack() { return false; }
    public void goBack() {}
    public void loadUrl(String url) {}
}
