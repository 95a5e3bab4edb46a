import type { ProviderName } from '../providers/provider-name';
import { countTextTokens, countToolPayloadTokens } from '../providers/token-count';
import { ToolGroupPrompt } from '../tool-group-prompt';
import type { ToolRegistry } from '../tool-registry';

const PROVIDERS: readonly [ProviderName, string][] = [
  ['openai', 'OpenAI'],
  ['anthropic', 'Anthropic'],
  ['gemini', 'Gemini'],
];

export interface TokenScenario {
  readonly name: string;
  readonly tools: readonly string[];
  /** Whether the "Available Tool Groups" section is sent too (it is whenever groups are routed). */
  readonly withListing: boolean;
}

/**
 * F1 (SPEC.md) as a Markdown table: the tokens (o200k) a request spends on tool schemas, in each
 * provider's format, for a fresh session, after loading each named group, with every group loaded,
 * and the baseline of sending every tool with no routing. Shared by the benchmark of the test
 * catalogue (this package) and of the server's real catalogue.
 */
export function toolTokenTable(registry: ToolRegistry, loadedGroups: readonly string[]): string {
  const listingTokens = countTextTokens(new ToolGroupPrompt(registry).render());
  const core = registry.coreToolNames();
  const all = registry.toolNames();
  const scenarios: TokenScenario[] = [
    { name: 'fresh session: core tools + group listing', tools: core, withListing: true },
    ...loadedGroups.map((group) => ({ name: `after load_tool_group("${group}")`, tools: [...core, ...registry.groupToolNames(group)], withListing: true })),
    { name: 'every group loaded', tools: all, withListing: true },
    { name: 'no routing: all tools, no listing (baseline)', tools: all, withListing: false },
  ];
  const baseline = scenarios[scenarios.length - 1] as TokenScenario;
  const tokens = (provider: ProviderName, s: TokenScenario) => countToolPayloadTokens(registry.toolPayload(provider, s.tools)) + (s.withListing ? listingTokens : 0);
  const baselineTokens = Object.fromEntries(PROVIDERS.map(([p]) => [p, tokens(p, baseline)]));

  const lines = [
    `${all.length} tools, ${core.length} core, ${registry.groupNames().length} groups. Tokens of the JSON \`tools\` value in each provider's format, plus the "Available Tool Groups" prompt section (${listingTokens} tokens) where groups are routed. Ratio = tokens / baseline of the same provider.`,
    '',
    `| scenario | tools sent | ${PROVIDERS.map(([, label]) => `${label} | ratio`).join(' | ')} |`,
    `|---|---:|${PROVIDERS.map(() => '---:|---:').join('|')}|`,
  ];
  for (const s of scenarios) {
    const cells = PROVIDERS.map(([p]) => {
      const t = tokens(p, s);
      return `${t} | ${(t / (baselineTokens[p] ?? 1)).toFixed(2)}×`;
    });
    lines.push(`| ${s.name} | ${s.tools.length} | ${cells.join(' | ')} |`);
  }
  const issues = registry.schemaIssues();
  const summary = PROVIDERS.map(([p, label]) => {
    const mine = issues.filter((i) => i.provider === p);
    return `${label} ${mine.length} in ${new Set(mine.map((i) => i.toolName)).size} tools`;
  });
  lines.push('', `Schema lint at registration (adapted, never a failed request): ${summary.join('; ')}.`);
  return lines.join('\n');
}
