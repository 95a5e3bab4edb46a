package com.getcapacitor;

import android.os.Bundle;
import androidx.activity.ComponentActivity;

// The real class extends AppCompatActivity, which extends ComponentActivity.
public class BridgeActivity extends ComponentActivity {
    protected Bridge bridge;
    @Override
    protected void onCreate(Bundle savedInstanceState) {}
    public void registerPlugin(Class<? extends Plugin> plugin) {}
}
