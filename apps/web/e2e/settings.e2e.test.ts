import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, DESKTOP, MODEL_KEY, PHONE, startUiHarness, waitForCount, waitForText, type UiHarness } from './harness';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(90_000);

/** A user JS group file with one good tool and one entry the loader must skip with an error. */
const USER_TOOLS_JSON = JSON.stringify([
  { _meta: true, display_name: 'My Text Tools', description: 'Small text helpers written by the user' },
  { name: 'word_count', description: 'Count the words of a text', function: 'wordCount', parameters: { properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'broken_tool', description: 'Has no function field, so it cannot load' },
]);
const USER_TOOLS_JS = 'function wordCount(params) { return String(params.text).split(/\\s+/).filter(Boolean).length; }\n';

describeUi(chromiumAvailable ? 'S6 settings in the browser (real server, FAKE OpenAI-compatible model, Chromium)' : CHROMIUM_SKIP_REASON, () => {
  let ui: UiHarness;

  beforeAll(async () => {
    ui = await startUiHarness();
    // The user's tools folder is read at start-up; writing it and restarting avoids waiting on the watcher.
    const folder = path.join(ui.server.dataDir, 'tools');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'my_text_tools.js'), USER_TOOLS_JS);
    writeFileSync(path.join(folder, 'my_text_tools.json'), USER_TOOLS_JSON);
    await ui.restartServer();
  });
  afterAll(async () => {
    await ui?.close();
  });

  const card = (page: Page, name: string): Locator => page.getByRole('article', { name, exact: true });

  test('S6 the tabs are links with the current one marked, and each tab has its own address', async () => {
    const { page, errors } = await ui.open({ hash: '#/settings/agents' });
    const tabs = page.getByRole('navigation', { name: 'Settings sections' });
    await expect(tabs.getByRole('link', { name: 'Agents' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(tabs.getByRole('link', { name: 'Providers' }).getAttribute('aria-current')).resolves.toBeNull();
    await tabs.getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('heading', { name: 'Tools', level: 2 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/settings/tools');
    await expect(tabs.getByRole('link', { name: 'Tools' }).getAttribute('aria-current')).resolves.toBe('page');
    expect(errors).toEqual([]);
  });

  test('S6 add a provider with a key through the form: the card says "Key stored" and no config event holds the key (fake model)', async () => {
    const { page, errors } = await ui.open({ hash: '#/settings/providers' });
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('Fake Local');
    await form.getByLabel('Kind').selectOption('openai');
    await form.getByLabel('API base URL').fill(ui.fake.url);
    const keyField = form.getByLabel(/API key/);
    await expect(keyField.getAttribute('type')).resolves.toBe('password');
    await keyField.fill(MODEL_KEY);
    await form.getByRole('button', { name: 'Add provider' }).click();

    await form.getByText('Added Fake Local.').waitFor();
    const provider = card(page, 'Fake Local');
    await provider.getByText('Key stored', { exact: true }).waitFor();
    await provider.getByText('OpenAI-compatible').waitFor();
    // The form is emptied, so the key does not linger in the page.
    await expect(keyField.inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(MODEL_KEY);

    const { providers } = await ui.api<{ providers: { name: string; apiKey: string }[] }>('GET', '/api/providers');
    expect(providers.find((p) => p.name === 'Fake Local')).toMatchObject({ apiKey: 'set' });
    const events = await ui.api<{ events: { type: string }[] }>('GET', '/api/config/events');
    expect(events.events.map((e) => e.type)).toEqual(expect.arrayContaining(['ProviderCreated', 'ProviderApiKeySet']));
    expect(JSON.stringify(events)).not.toContain(MODEL_KEY);
    expect(errors).toEqual([]);
  });

  test('S6 fetch the models from the fake model server, then set one as the default model', async () => {
    const created = await ui.api<{ providerId: string }>('POST', '/api/providers', { name: 'Fetch Test', kind: 'openai', apiBaseUrl: ui.fake.url, apiKey: MODEL_KEY });
    const { page, errors } = await ui.open({ hash: '#/settings/providers' });
    const provider = card(page, 'Fetch Test');
    await provider.getByRole('heading', { name: 'Models (0)' }).waitFor();
    await provider.getByRole('button', { name: 'Fetch models' }).click();
    await provider.getByText('Models fetched.').waitFor();
    // The fake's model list (DEFAULT_FAKE_MODELS.openai).
    await provider.getByRole('heading', { name: 'Models (3)' }).waitFor();
    await provider.getByText('gpt-4o', { exact: true }).waitFor();
    expect(ui.fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true);

    const defaults = page.getByRole('form', { name: 'Default model' });
    const label = defaults.getByTestId('default-model');
    // What the "Now:" label says at the moment the success notice enters the page: the notice must
    // not show next to the old label (the UI reloads the providers before it says "set").
    await label.evaluate((element) => {
      const form = element.closest('form')!;
      const observer = new MutationObserver(() => {
        if (!form.textContent!.includes('Default model set to gpt-4o.')) return;
        form.dataset.labelAtSuccess = element.textContent ?? '';
        observer.disconnect();
      });
      observer.observe(form, { subtree: true, childList: true, characterData: true });
    });
    await defaults.getByLabel('Model used when an agent names none').selectOption(`${created.providerId}\u001fgpt-4o`);
    await defaults.getByRole('button', { name: 'Set default model' }).click();
    await defaults.getByText('Default model set to gpt-4o.').waitFor();
    await expect(defaults.getAttribute('data-label-at-success')).resolves.toBe('Fetch Test / gpt-4o');
    await waitForText(label, 'Fetch Test / gpt-4o');
    // The chip, not the Reasoning selects' "Default" option.
    await provider.locator('.chip').getByText('Default', { exact: true }).waitFor();
    const answer = await ui.api<{ defaultModel: unknown }>('GET', '/api/providers');
    expect(answer.defaultModel).toEqual({ providerId: created.providerId, modelId: 'gpt-4o' });

    // Add one by id and delete another: both show and persist.
    await provider.getByLabel('Model id to add to Fetch Test').fill('my-local-model');
    await provider.getByRole('button', { name: 'Add model' }).click();
    await provider.getByRole('heading', { name: 'Models (4)' }).waitFor();
    await provider.getByRole('button', { name: 'Delete model text-embedding-3-small' }).click();
    await provider.getByRole('heading', { name: 'Models (3)' }).waitFor();
    const after = await ui.api<{ providers: { providerId: string; models: { modelId: string }[] }[] }>('GET', '/api/providers');
    expect(
      after.providers
        .find((p) => p.providerId === created.providerId)!
        .models.map((m) => m.modelId)
        .sort(),
    ).toEqual(['gpt-4o', 'gpt-4o-mini', 'my-local-model']);
    expect(errors).toEqual([]);
  });

  test("S6 set a model's Reasoning to High, then back to Default: the API and the config events follow (FAKE model server)", async () => {
    type Listed = { providers: { providerId: string; models: { modelId: string; source: string; reasoning?: string }[] }[] };
    type ConfigEvents = { events: { type: string; data: { providerId?: string; modelId?: string; effort?: string | null } }[] };
    // A slash and a colon: the id must be encoded in the PATCH path.
    const modelId = 'local/reasoner:8b';
    const created = await ui.api<{ providerId: string }>('POST', '/api/providers', { name: 'Reasoning Test', kind: 'openai', apiBaseUrl: ui.fake.url, apiKey: MODEL_KEY });
    const modelOf = async () =>
      (await ui.api<Listed>('GET', '/api/providers')).providers.find((p) => p.providerId === created.providerId)!.models.find((m) => m.modelId === modelId);
    const lastEvent = async () => (await ui.api<ConfigEvents>('GET', '/api/config/events')).events.at(-1);

    const { page, errors } = await ui.open({ hash: '#/settings/providers' });
    const provider = card(page, 'Reasoning Test');
    await provider.getByLabel('Model id to add to Reasoning Test').fill(modelId);
    await provider.getByRole('button', { name: 'Add model' }).click();
    await provider.getByText(`Added ${modelId}.`).waitFor();
    const select = provider.getByRole('combobox', { name: `Reasoning for ${modelId}` });
    await expect(select.inputValue()).resolves.toBe('');
    await expect(select.getAttribute('title')).resolves.toBe('How hard the model is asked to think (only for models that can reason)');
    // Every model has one, the environment provider's too.
    const env = page.getByRole('article').filter({ has: page.getByText('Read-only', { exact: true }) });
    await env
      .first()
      .getByRole('combobox', { name: /^Reasoning for / })
      .first()
      .waitFor();

    await select.selectOption({ label: 'High' });
    await provider.getByText(`Reasoning for ${modelId}: High.`).waitFor();
    await expect(modelOf()).resolves.toMatchObject({ modelId, reasoning: 'high' });
    await expect(lastEvent()).resolves.toMatchObject({ type: 'ModelReasoningSet', data: { providerId: created.providerId, modelId, effort: 'high' } });
    // The select shows what the server has, after a reload too.
    await page.reload();
    await expect(
      card(page, 'Reasoning Test')
        .getByRole('combobox', { name: `Reasoning for ${modelId}` })
        .inputValue(),
    ).resolves.toBe('high');

    const again = card(page, 'Reasoning Test');
    await again.getByRole('combobox', { name: `Reasoning for ${modelId}` }).selectOption({ label: 'Provider default' });
    await again.getByText(`Reasoning for ${modelId}: Provider default (nothing asked).`).waitFor();
    const cleared = await modelOf();
    expect(cleared).toMatchObject({ modelId, source: 'added' });
    expect(cleared).not.toHaveProperty('reasoning');
    await expect(lastEvent()).resolves.toMatchObject({ type: 'ModelReasoningSet', data: { providerId: created.providerId, modelId, effort: null } });
    await expect(again.getByRole('combobox', { name: `Reasoning for ${modelId}` }).inputValue()).resolves.toBe('');
    expect(errors).toEqual([]);
  });

  test('S6 the environment provider is read-only; deleting a provider asks first', async () => {
    await ui.api('POST', '/api/providers', { name: 'Doomed', kind: 'anthropic', apiBaseUrl: 'http://127.0.0.1:9/' });
    const { page, errors } = await ui.open({ hash: '#/settings/providers' });
    const env = page.getByRole('article').filter({ has: page.getByText('Read-only', { exact: true }) });
    await env.first().waitFor();
    await expect(
      env
        .first()
        .getByRole('button', { name: /Delete provider/ })
        .count(),
    ).resolves.toBe(0);
    await expect(
      env
        .first()
        .getByLabel(/API key/)
        .count(),
    ).resolves.toBe(0);

    const doomed = card(page, 'Doomed');
    await doomed.getByRole('button', { name: 'Delete provider…' }).click();
    await doomed.getByRole('group', { name: 'Confirm deleting Doomed' }).getByRole('button', { name: 'Delete Doomed' }).click();
    await page.getByText('Deleted Doomed.').waitFor();
    await doomed.waitFor({ state: 'detached' });
    const { providers } = await ui.api<{ providers: { name: string }[] }>('GET', '/api/providers');
    expect(providers.map((p) => p.name)).not.toContain('Doomed');
    expect(errors).toEqual([]);
  });

  test.each([
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const)("S6 edit an agent's system prompt and see it after a reload (%s)", async (label, device) => {
    const prompt = `You are the ${label} test agent.\nAnswer in one sentence.`;
    const { page, errors } = await ui.open({ hash: '#/settings/agents', device });
    const agent = card(page, 'OneClaw');
    await agent.getByRole('button', { name: 'Edit OneClaw' }).click();
    const editor = agent.getByRole('form', { name: 'Edit OneClaw' });
    await editor.getByLabel('System prompt').fill(prompt);
    await editor.getByRole('button', { name: 'Save OneClaw' }).click();
    await agent.getByText('Saved OneClaw.').waitFor();

    await page.reload();
    await expect(card(page, 'OneClaw').getByTestId('system-prompt').textContent()).resolves.toBe(prompt);
    const { agents } = await ui.api<{ agents: { id: string; systemPrompt: string }[] }>('GET', '/api/agents');
    expect(agents.find((a) => a.id === 'default')!.systemPrompt).toBe(prompt);
    // The built-in agent can be changed but not deleted.
    await expect(
      card(page, 'OneClaw')
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  test('S6 create an agent, restrict its tools with the allow-list, then delete it after confirming', async () => {
    const { page, errors } = await ui.open({ hash: '#/settings/agents' });
    const form = page.getByRole('form', { name: 'Create an agent' });
    await form.getByLabel('Name').fill('Researcher');
    await form.getByLabel('System prompt').fill('You research things.');
    await form.getByRole('button', { name: 'Create agent' }).click();
    const agent = card(page, 'Researcher');
    await agent.getByText('Created here').waitFor();

    // Restrict it to two tools picked from the catalogue.
    await agent.getByRole('button', { name: 'Edit Researcher' }).click();
    const editor = agent.getByRole('form', { name: 'Edit Researcher' });
    await editor.getByRole('radio', { name: /^Only the tools ticked below/ }).check();
    await editor.getByLabel('Filter the tool list').fill('read_file');
    await editor.getByRole('checkbox', { name: 'read_file', exact: true }).check();
    await editor.getByLabel('Filter the tool list').fill('load_tool_group');
    await editor.getByRole('checkbox', { name: 'load_tool_group', exact: true }).check();
    await editor.getByRole('button', { name: 'Save Researcher' }).click();
    await agent.getByText('Saved Researcher.').waitFor();
    await page.reload();
    await card(page, 'Researcher').getByText('2 allowed: load_tool_group, read_file').waitFor();
    const listed = await ui.api<{ agents: { name: string; allowedTools?: string[] }[] }>('GET', '/api/agents');
    expect(listed.agents.find((a) => a.name === 'Researcher')!.allowedTools!.sort()).toEqual(['load_tool_group', 'read_file']);

    await agent.getByRole('button', { name: 'Delete Researcher…' }).click();
    await agent.getByRole('button', { name: 'Delete Researcher', exact: true }).click();
    await page.getByText('Deleted Researcher.').waitFor();
    await agent.waitFor({ state: 'detached' });
    const { agents } = await ui.api<{ agents: { name: string }[] }>('GET', '/api/agents');
    expect(agents.map((a) => a.name)).not.toContain('Researcher');
    expect(errors).toEqual([]);
  });

  test('S6 tools are grouped by source file with their counts, and the user JS file shows its load error', async () => {
    const { sources } = await ui.api<{ sources: { fileName: string; kind: string; tools: unknown[]; problems: { severity: string; message: string }[] }[] }>('GET', '/api/tools');
    const userFile = sources.find((s) => s.kind === 'js-user');
    expect(userFile).toBeDefined();
    expect(userFile!.problems.some((p) => p.severity === 'error' && p.message.includes('broken_tool'))).toBe(true);

    const { page, errors } = await ui.open({ hash: '#/settings/tools' });
    const list = page.getByRole('list', { name: 'Tool source files' });
    await list.waitFor();
    await expect(list.getByRole('article').count()).resolves.toBe(sources.length);
    for (const source of sources) {
      const n = source.tools.length;
      const count = card(page, source.fileName).getByTestId('tool-count');
      await expect(count.textContent()).resolves.toMatch(new RegExp(`^${n} tools?\\b`));
    }

    const user = card(page, userFile!.fileName);
    await user.getByText('User JS').waitFor();
    await user.getByText('1 error').waitFor();
    await user.getByText('My Text Tools').waitFor();
    const problems = user.getByRole('list', { name: `Load problems in ${userFile!.fileName}` });
    await expect(problems.textContent()).resolves.toContain('broken_tool');
    await expect(user.getByRole('switch', { name: 'Enable word_count' }).isChecked()).resolves.toBe(true);
    // The error is also named at the top of the screen, above the long list.
    await expect(page.locator('.tools-errors').textContent()).resolves.toContain(userFile!.fileName);
    expect(errors).toEqual([]);
  });

  test('S6 disable a tool with its switch: it stays disabled after a reload, and GET /api/tools agrees', async () => {
    const { page, errors } = await ui.open({ hash: '#/settings/tools' });
    await page.getByLabel('Filter tools').fill('word_count');
    const toggle = page.getByRole('switch', { name: 'Enable word_count' });
    await expect(toggle.isChecked()).resolves.toBe(true);
    await toggle.uncheck();
    await page.getByText('word_count disabled.').waitFor();
    await page.getByRole('switch', { name: 'Enable word_count', checked: false }).waitFor();

    await page.reload();
    await page.getByLabel('Filter tools').fill('word_count');
    await page.getByRole('switch', { name: 'Enable word_count', checked: false }).waitFor();
    const { sources } = await ui.api<{ sources: { tools: { name: string; enabled: boolean }[] }[] }>('GET', '/api/tools');
    expect(sources.flatMap((s) => s.tools).find((t) => t.name === 'word_count')).toMatchObject({ enabled: false });
    expect(errors).toEqual([]);
  });

  test('S6 disable a whole group with its switch at phone size, and the filter narrows the list', async () => {
    const { page, errors } = await ui.open({ hash: '#/settings/tools', device: PHONE });
    await page.getByLabel('Filter tools').fill('my_text_tools');
    await waitForCount(page.getByRole('list', { name: 'Tool source files' }).getByRole('article'), 1);
    const group = page.getByRole('switch', { name: /^Enable group / });
    await expect(group.isChecked()).resolves.toBe(true);
    await group.uncheck();
    await page.getByText(/^group .* disabled\.$/).waitFor();
    const { groups } = await ui.api<{ groups: { name: string; enabled: boolean; source: { kind: string } }[] }>('GET', '/api/tool-groups');
    expect(groups.find((g) => g.source.kind === 'js-user')).toMatchObject({ enabled: false });
    // Nothing scrolls sideways on a 390 px screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
});
