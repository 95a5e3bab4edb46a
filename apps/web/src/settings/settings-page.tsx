import type { SettingsTab } from '../routes';

// Placeholder: replaced by the settings screens.
export function SettingsPage({ tab }: { tab: SettingsTab }) {
  return <section class="page">Settings {tab}</section>;
}
