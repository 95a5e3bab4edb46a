import path from 'node:path';

/** The package folder; the JS files are data, read from here (never compiled). */
export const TOOLS_ASSETS_ROOT = path.resolve(__dirname, '..');
/** Shipped JS tools: `<name>.json` manifest + `<name>.js` code pairs (built-ins and the Google groups). */
export const BUILTIN_JS_TOOLS_FOLDER = path.join(TOOLS_ASSETS_ROOT, 'js', 'tools');
/** CommonJS libraries tools load with `lib(name)`. */
export const BUILTIN_JS_LIB_FOLDER = path.join(TOOLS_ASSETS_ROOT, 'js', 'lib');
/** Skills for `load_skill` (folders with a SKILL.md). */
export const BUILTIN_SKILLS_FOLDER = path.join(TOOLS_ASSETS_ROOT, 'skills');
