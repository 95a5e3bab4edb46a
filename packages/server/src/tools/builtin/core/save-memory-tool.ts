import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import { MAX_MEMORY_ENTRY_CHARS, MEMORY_CATEGORIES, type MemoryCategory, type MemoryFile } from './memory-file';

/**
 * save_memory (CATALOGUE.md section 8, core): remembers a fact about the user across
 * conversations. Saved entries are shown in the system prompt and found by search_history.
 */
export function createSaveMemoryTool(memory: MemoryFile): Tool {
  return builtinTool<{ readonly content: string; readonly category?: MemoryCategory }>(
    {
      name: 'save_memory',
      description:
        'Save a lasting fact about the user (who they are, what they prefer, their routines, interests and projects) to long-term memory, ' +
        'shown to you in every later conversation. Save one fact per call, in a full sentence; do not save what memory already holds.',
      parameters: {
        type: 'object',
        properties: {
          content: { type: 'string', maxLength: MAX_MEMORY_ENTRY_CHARS, description: `The fact to remember, at most ${MAX_MEMORY_ENTRY_CHARS} characters.` },
          category: {
            type: 'string',
            enum: [...MEMORY_CATEGORIES],
            description: 'profile (who the user is), preferences, interests, habits (routines, workflow), projects, or notes (default).',
          },
        },
        required: ['content'],
      },
      timeoutMs: 10_000,
    },
    async (params) => {
      const entry = await memory.save(params.content, params.category ?? 'notes');
      return `Saved to memory (${entry.category}, ${entry.date}): ${entry.text}`;
    },
  );
}
