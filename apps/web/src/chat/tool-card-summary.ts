import type { ToolItem } from './transcript';

export type ToolStatusIconName = 'running' | 'done' | 'error' | 'none';

/**
 * What a compact tool call card says. The status is a word and an icon as well as a colour, so
 * an error reads as an error without colour vision (WCAG 1.4.1).
 */
export interface ToolCardSummary {
  /** Which icon the card draws (an SVG from `icons/icons.tsx`; `none` draws none). */
  readonly icon: ToolStatusIconName;
  /** "Running", "Done", "Error: timeout", "No result". */
  readonly statusText: string;
  /** "85 ms", "1.2 s"; absent while running. */
  readonly duration?: string;
  /** A one-line hint of the arguments, such as `group_name: "pdf"`. */
  readonly argumentsHint: string;
  readonly isError: boolean;
}

export function toolCardSummary(item: ToolItem): ToolCardSummary {
  const duration = item.durationMs !== undefined && item.status !== 'running' ? formatDuration(item.durationMs) : undefined;
  const base = { argumentsHint: argumentsHint(item.arguments), ...(duration !== undefined ? { duration } : {}) };
  switch (item.status) {
    case 'running':
      return { ...base, icon: 'running', statusText: 'Running', isError: false };
    case 'success':
      return { ...base, icon: 'done', statusText: 'Done', isError: false };
    case 'error':
      return { ...base, icon: 'error', statusText: item.errorType ? `Error: ${item.errorType}` : 'Error', isError: true };
    case 'no_result':
      return { ...base, icon: 'none', statusText: 'No result', isError: false };
  }
}

/** Milliseconds as a person reads them: whole ms below a second, then seconds, then minutes. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 60 ? `${minutes + 1} min` : `${minutes} min ${seconds} s`;
}

/** Arguments as indented JSON for the expanded card. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool's result for the expanded card: tools answer with text, which is often JSON; JSON
 * objects and arrays are indented, anything else is shown as it came.
 */
export function prettyResult(text: string | undefined): string {
  if (!text) return '';
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

const HINT_CHARS = 60;

/** `key: value` pairs of the first arguments on one line, cut to fit a phone-wide card. */
export function argumentsHint(args: unknown, maxChars = HINT_CHARS): string {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return '';
  const parts = Object.entries(args as Record<string, unknown>).map(([key, value]) => `${key}: ${oneLine(value)}`);
  const text = parts.join(', ');
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function oneLine(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > HINT_CHARS ? `${value.slice(0, HINT_CHARS)}…` : value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
