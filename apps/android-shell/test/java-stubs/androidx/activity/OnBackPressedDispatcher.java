package androidx.activity;

import androidx.lifecycle.LifecycleOwner;

public final class OnBackPressedDispatcher {
    public final void addCallback(LifecycleOwner owner, OnBackPressedCallback onBackPressedCallback) {}
    public final void onBackPressed() {}
}
