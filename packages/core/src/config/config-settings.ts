import { configErrors } from './config-errors';

/** A setting the configuration knows: its meaning, its default and how a value is checked. */
export interface SettingDefinition {
  readonly key: string;
  readonly description: string;
  /** Undefined when the default depends on where the server runs (the time zone). */
  readonly defaultValue?: string;
  /** The value to record, normalized; throws `validation_error` naming what is accepted. */
  readonly normalize: (value: string) => string;
}

const THEME_MODES = ['system', 'light', 'dark'] as const;

/** IANA names only (`Europe/Paris`, `UTC`, `Etc/GMT+5`): offsets such as `+01:00` are refused. */
const TIME_ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export const CONFIG_SETTINGS: readonly SettingDefinition[] = [
  {
    key: 'theme_mode',
    description: 'Colour scheme of the app: system, light or dark.',
    defaultValue: 'system',
    normalize(value) {
      const mode = value.trim().toLowerCase();
      if (!(THEME_MODES as readonly string[]).includes(mode)) {
        throw configErrors.invalid(`theme_mode must be one of ${THEME_MODES.join(', ')} (got '${value}').`, { key: 'theme_mode', allowed: THEME_MODES });
      }
      return mode;
    },
  },
  {
    key: 'timezone',
    description: 'IANA time zone (e.g. Europe/Paris) used for scheduled tasks and dates; defaults to the server time zone.',
    normalize(value) {
      const zone = value.trim();
      const canonical = TIME_ZONE_SHAPE.test(zone) ? canonicalTimeZone(zone) : undefined;
      if (canonical === undefined) {
        throw configErrors.invalid(`timezone must be an IANA time zone name such as Europe/Paris, America/New_York or UTC (got '${value}').`, { key: 'timezone' });
      }
      return canonical;
    },
  },
];

export const CONFIG_SETTING_KEYS: readonly string[] = CONFIG_SETTINGS.map((s) => s.key);

/** The definition of a known key; `unknown_key` listing the known keys otherwise. */
export function settingDefinition(key: string): SettingDefinition {
  const definition = CONFIG_SETTINGS.find((s) => s.key === key);
  if (!definition) throw configErrors.unknownKey(key, CONFIG_SETTING_KEYS);
  return definition;
}

/** The zone's canonical spelling as Intl knows it (`europe/paris` → `Europe/Paris`), or undefined. */
function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
