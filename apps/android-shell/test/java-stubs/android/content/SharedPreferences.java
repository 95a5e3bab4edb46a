package android.content;

public interface SharedPreferences {
    String getString(String key, String defValue);
}
