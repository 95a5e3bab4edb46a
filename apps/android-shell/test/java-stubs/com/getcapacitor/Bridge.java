package com.getcapacitor;

import android.webkit.WebView;

public class Bridge {
    public WebView getWebView() { return null; }
    public String getHost() { return null; }
    public String getErrorUrl() { return null; }
    public String getLocalUrl() { return null; }
}
