import type { SettingsTab } from '../routes';
import { AgentsTab } from './agents-tab';
import { ProvidersTab } from './providers-tab';
import { ToolsTab } from './tools-tab';
import './settings.css';

const TAB_LABELS: Readonly<Record<SettingsTab, string>> = { providers: 'Providers', agents: 'Agents', tools: 'Tools' };

/**
 * S6 settings: providers and models, agents, and tools grouped by source file. The tabs are
 * links (each tab is its own address, so reload and back work); the current one is marked with
 * aria-current.
 */
export function SettingsPage({ tab }: { tab: SettingsTab }) {
  return (
    <section class="page settings" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <nav class="settings-tabs" aria-label="Settings sections">
        {(Object.keys(TAB_LABELS) as SettingsTab[]).map((name) => (
          <a key={name} href={`#/settings/${name}`} class="settings-tabs__tab" aria-current={name === tab ? 'page' : undefined}>
            {TAB_LABELS[name]}
          </a>
        ))}
      </nav>
      {tab === 'providers' && <ProvidersTab />}
      {tab === 'agents' && <AgentsTab />}
      {tab === 'tools' && <ToolsTab />}
    </section>
  );
}
