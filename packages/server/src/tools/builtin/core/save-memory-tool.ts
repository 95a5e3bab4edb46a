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
      description: 'Save one lasting fact about the user (profile, preferences, habits, projects) to memory shown in later conversations.',
      parameters: {
        type: 'object',
        properties: {
          content: { type: 'string', maxLength: MAX_MEMORY_ENTRY_CHARS, description: 'One fact, a full sentence.' },
          category: {
            type: 'string',
            enum: [...MEMORY_CATEGORIES],
            description: 'default notes',
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
