import { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from '@oneclaw/core';
import { isPlainObject, jsonCopy } from '../json-schema';

export type ParsedArguments = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly problem: string };

/**
 * Arguments as the provider delivered them: a JSON string (OpenAI) or an object (Anthropic,
 * Gemini). Broken JSON is refused, never read as `{}`, so the model learns its call was garbled.
 * Missing arguments and an empty or blank string mean "no arguments": local OpenAI-compatible
 * servers send "" for a call without parameters, and the schema still decides whether that is
 * acceptable. The value is a copy, so a tool cannot change what the caller recorded.
 */
export function parseArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, problem: `the arguments are not valid JSON (${(error as Error).message})` };
    }
  }
  if (!isPlainObject(value)) return { ok: false, problem: `the arguments must be a JSON object, got ${describe(value)}` };
  // Checked before anything recursive (the copy, schema validation) meets them.
  if (nestsDeeperThan(value, MAX_ARGUMENT_DEPTH)) return { ok: false, problem: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays` };
  const copy = jsonCopy(value);
  if (!copy) return { ok: false, problem: 'the arguments must be plain JSON' };
  return { ok: true, value: copy };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
}
