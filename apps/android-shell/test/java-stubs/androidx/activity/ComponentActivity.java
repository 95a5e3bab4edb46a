package androidx.activity;

import android.os.Bundle;
import androidx.lifecycle.LifecycleOwner;

public class ComponentActivity implements LifecycleOwner {
    protected void onCreate(Bundle savedInstanceState) {}
    public final OnBackPressedDispatcher getOnBackPressedDispatcher() { return null; }
}
