import { OneClawError } from '@oneclaw/core';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import type { HistoryHit, HistoryIndex, HistoryScope } from './history-index';

export const SEARCH_HISTORY_DEFAULT_RESULTS = 10;
export const SEARCH_HISTORY_MAX_RESULTS = 50;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface SearchHistoryParams {
  readonly query: string;
  readonly scope?: HistoryScope;
  readonly date_from?: string;
  readonly date_to?: string;
  readonly max_results?: number;
}

/**
 * search_history (CATALOGUE.md section 8, core): full-text search over past conversations and
 * saved memory, best match first.
 */
export function createSearchHistoryTool(history: HistoryIndex): Tool {
  return builtinTool<SearchHistoryParams>(
    {
      name: 'search_history',
      description: 'Search past conversations and saved memory by words, best match first.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: "e.g. 'flight Lisbon'" },
          scope: { type: 'string', enum: ['all', 'memory', 'sessions'], description: 'default all' },
          date_from: { type: 'string', description: 'YYYY-MM-DD' },
          date_to: { type: 'string', description: 'YYYY-MM-DD, inclusive' },
          max_results: {
            type: 'integer',
            minimum: 1,
            description: `default ${SEARCH_HISTORY_DEFAULT_RESULTS}, max ${SEARCH_HISTORY_MAX_RESULTS}`,
          },
        },
        required: ['query'],
      },
      timeoutMs: 30_000,
    },
    async (params, context) => {
      const query = params.query.trim();
      if (!/[\p{L}\p{N}]/u.test(query)) {
        throw new OneClawError('invalid_query', 'The query has no words to search for. Give one or more words, e.g. "dentist appointment".');
      }
      const dateFrom = checkDate(params.date_from, 'date_from');
      const dateTo = checkDate(params.date_to, 'date_to');
      if (dateFrom && dateTo && dateFrom > dateTo) {
        throw new OneClawError('invalid_date_range', `date_from (${dateFrom}) is after date_to (${dateTo}). Swap them, or leave one out.`);
      }
      const scope = params.scope ?? 'all';
      const hits = await history.search({
        query,
        scope,
        ...(dateFrom ? { dateFrom } : {}),
        ...(dateTo ? { dateTo } : {}),
        maxResults: Math.min(SEARCH_HISTORY_MAX_RESULTS, params.max_results ?? SEARCH_HISTORY_DEFAULT_RESULTS),
        currentSessionId: context.sessionId,
      });
      const where = `${scope === 'all' ? 'conversations and memory' : scope === 'memory' ? 'memory' : 'conversations'}${dateFrom || dateTo ? ` (${dateFrom ?? '…'} to ${dateTo ?? '…'})` : ''}`;
      if (hits.length === 0) return `No results for "${query}" in ${where}. Try other or fewer words, or a wider date range.`;
      return `${hits.length} result${hits.length === 1 ? '' : 's'} for "${query}" in ${where}, best first:\n\n${hits.map(formatHit).join('\n\n')}`;
    },
  );
}

function formatHit(hit: HistoryHit, i: number): string {
  const source = hit.kind === 'session' ? `session ${hit.sessionId} · ${hit.date} · ${hit.role}` : `memory · ${hit.date || 'undated'} · ${hit.category}`;
  return `${i + 1}. [${source}]\n   ${hit.snippet}`;
}

function checkDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const match = DATE.exec(text);
  const valid = match !== null && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).toISOString().startsWith(text);
  if (!valid) throw new OneClawError('invalid_date', `${name} '${value}' is not a date. Use YYYY-MM-DD, e.g. 2025-03-01.`);
  return text;
}
