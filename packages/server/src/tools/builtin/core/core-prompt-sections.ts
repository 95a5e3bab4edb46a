import type { MemoryFile } from './memory-file';
import type { SkillLibrary } from './skill-library';

/**
 * The system prompt sections of the core tools, after the tool group listing: "## Available
 * Skills" (load_skill), then "## Memory" (save_memory), last because it is the part that changes
 * most often, and provider prompt caches keep the unchanged start. Both are cached by their
 * sources and rebuilt only when a skill or the memory file changes.
 */
export class CorePromptSections {
  private memoryProblem: string | undefined;

  constructor(
    private readonly skills: SkillLibrary,
    private readonly memory: MemoryFile,
    private readonly onLog?: (level: 'info' | 'warn', message: string) => void,
  ) {}

  /** '' when there is nothing to show. Never throws: an unreadable memory file must not stop a turn. */
  render(options: { readonly allowedTools?: ReadonlySet<string> } = {}): string {
    return [this.skills.promptSection(options), this.memorySection()].filter((s) => s !== '').join('\n\n');
  }

  private memorySection(): string {
    try {
      const text = this.memory.promptSection();
      this.memoryProblem = undefined;
      return text;
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      // Once per problem, not on every request.
      if (problem !== this.memoryProblem) this.onLog?.('warn', `memory left out of the prompt: ${problem}`);
      this.memoryProblem = problem;
      return '';
    }
  }
}
