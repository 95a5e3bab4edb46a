package android.content;

public abstract class Context {
    public static final int MODE_PRIVATE = 0x0000;
    public abstract SharedPreferences getSharedPreferences(String name, int mode);
}
