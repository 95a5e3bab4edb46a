// Assembles the app's web assets in www/ (capacitor.config.json "webDir"), which `cap sync`
// copies into the Android project:
//   www/            the launcher and offline pages (launcher/)
//   www/ui/         the web UI as built by apps/web (into packages/server/static)
//   www/vendor/     plain-script builds of @capacitor/core and @capacitor/preferences, for those pages
// www/ is a build output (git-ignored); run `pnpm --filter @oneclaw/android-shell build`.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(appDir, 'package.json'));
const www = path.join(appDir, 'www');
const launcher = path.join(appDir, 'launcher');
const webBuild = path.resolve(appDir, '../../packages/server/static');

if (!existsSync(path.join(webBuild, 'index.html'))) {
  console.error(`The web UI is not built (${webBuild}/index.html is missing). Run: pnpm --filter @oneclaw/web build`);
  process.exit(1);
}

rmSync(www, { recursive: true, force: true });
mkdirSync(path.join(www, 'vendor'), { recursive: true });

// Only what the WebView loads: type declarations stay behind.
for (const name of readdirSync(launcher)) {
  if (/\.(html|js|css)$/.test(name)) cpSync(path.join(launcher, name), path.join(www, name));
}
cpSync(webBuild, path.join(www, 'ui'), { recursive: true });

const vendor = {
  'capacitor.js': '@capacitor/core/dist/capacitor.js',
  'capacitor-preferences.js': '@capacitor/preferences/dist/plugin.js',
};
for (const [target, source] of Object.entries(vendor)) cpSync(require.resolve(source), path.join(www, 'vendor', target));

console.log(`web assets ready in ${path.relative(process.cwd(), www) || www}`);
