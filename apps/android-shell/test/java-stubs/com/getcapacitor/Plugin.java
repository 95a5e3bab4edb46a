package com.getcapacitor;

import android.content.Context;
import android.net.Uri;

public class Plugin {
    public Context getContext() { return null; }
    public Boolean shouldOverrideLoad(Uri url) { return null; }
}
