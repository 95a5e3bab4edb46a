import fs from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { ConfinedFs } from '@oneclaw/js-tools';
import { parseSkillFile, SKILL_FILE_NAME, SkillFileError } from './skill-file';

export type SkillSource = 'built-in' | 'user';

export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly source: SkillSource;
  /** Host path of the skill's folder; never shown to the model. */
  readonly folder: string;
}

export interface LoadedSkill {
  readonly skill: Skill;
  /** SKILL.md without its front matter. */
  readonly body: string;
  /** The skill's other files, '/'-separated paths relative to its folder. */
  readonly files: readonly string[];
}

export interface SkillLibraryOptions {
  /** Shipped skills (BUILTIN_SKILLS_FOLDER): read once. */
  readonly builtinFolder: string;
  /** The user's skills (`<data dir>/skills`): read again whenever it changes. */
  readonly userFolder: string;
  readonly onLog?: (level: 'info' | 'warn', message: string) => void;
}

export const SKILLS_PROMPT_HEADING = '## Available Skills';
export const SKILLS_PROMPT_INSTRUCTION = "Use `load_skill` to load a skill's full instructions before you follow it.";
const MAX_SKILL_FILE_BYTES = 1024 * 1024;
const MAX_LISTED_FILES = 200;
const MAX_PROMPT_DESCRIPTION_CHARS = 200;

/**
 * The skills load_skill offers: folders holding a SKILL.md, shipped ones and the user's. A user
 * skill with the name of a shipped one replaces it (the user put it there on purpose, e.g. to
 * adapt it). A folder whose SKILL.md cannot be used is skipped and logged, never fatal.
 *
 * The shipped folder is read once. The user folder is checked on every use by a cheap signature
 * (its entries and each SKILL.md's size and modification time), and read again only when that
 * changes, so editing a skill takes effect on the next request without a restart.
 */
export class SkillLibrary {
  private readonly builtin: ReadonlyMap<string, Skill>;
  private userSignature: string | undefined;
  private skills: ReadonlyMap<string, Skill> = new Map();
  private prompt: string | undefined;

  constructor(private readonly options: SkillLibraryOptions) {
    this.builtin = this.scan(options.builtinFolder, 'built-in', new Map());
  }

  /** Every skill, sorted by name. */
  list(): readonly Skill[] {
    return [...this.current().values()];
  }

  /** `name` is a skill's name (exact, else ignoring case). */
  find(name: string): Skill | undefined {
    const skills = this.current();
    const exact = skills.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    return [...skills.values()].find((s) => s.name.toLowerCase() === lower);
  }

  /** The skill's instructions and the list of its other files; `not_found` names the skills there are. */
  load(name: string): LoadedSkill {
    const skill = this.require(name);
    try {
      return { skill, body: this.read(skill.folder).body, files: listFiles(skill.folder) };
    } catch (error) {
      // Changed or removed since the folder was last checked.
      throw new OneClawError('skill_unreadable', `Skill '${skill.name}' cannot be read now: ${describe(error)}. Try again, or pick another skill.`);
    }
  }

  /** One of the skill's other files, as text, confined to the skill's folder (no `..`, no links out). */
  readSkillFile(name: string, file: string): string {
    const skill = this.require(name);
    return new ConfinedFs({ root: skill.folder, maxReadBytes: MAX_SKILL_FILE_BYTES }).readFile(file);
  }

  /**
   * The system prompt section, in the format of the tool group listing:
   * `## Available Skills`, an instruction line, then `- name: description` per skill. Empty when
   * there is no skill, or when the agent may not call load_skill.
   */
  promptSection(options: { readonly allowedTools?: ReadonlySet<string> } = {}): string {
    if (options.allowedTools && !options.allowedTools.has('load_skill')) return '';
    const skills = this.current();
    if (this.prompt === undefined) {
      const lines = [...skills.values()].map((s) => `- ${s.name}: ${oneLine(s.description, MAX_PROMPT_DESCRIPTION_CHARS)}`);
      this.prompt = lines.length === 0 ? '' : `${SKILLS_PROMPT_HEADING}\n\n${SKILLS_PROMPT_INSTRUCTION}\n\n${lines.join('\n')}`;
    }
    return this.prompt;
  }

  private require(name: string): Skill {
    const skill = this.find(name);
    if (skill) return skill;
    const names = this.list().map((s) => s.name);
    throw new OneClawError(
      'not_found',
      names.length === 0 ? `No skill named '${name}': no skills are installed.` : `No skill named '${name}'. Available skills: ${names.join(', ')}.`,
    );
  }

  private current(): ReadonlyMap<string, Skill> {
    const signature = folderSignature(this.options.userFolder);
    if (signature !== this.userSignature) {
      this.userSignature = signature;
      const merged = new Map(this.builtin);
      const user = this.scan(this.options.userFolder, 'user', this.builtin);
      for (const [name, skill] of user) merged.set(name, skill);
      this.skills = new Map([...merged.entries()].sort(([a], [b]) => a.localeCompare(b)));
      this.prompt = undefined;
    }
    return this.skills;
  }

  private scan(folder: string, source: SkillSource, shipped: ReadonlyMap<string, Skill>): Map<string, Skill> {
    const found = new Map<string, Skill>();
    for (const entry of skillFolders(folder)) {
      const skillFolder = path.join(folder, entry);
      let parsed;
      try {
        parsed = this.read(skillFolder);
      } catch (error) {
        this.options.onLog?.('warn', `skill '${source === 'user' ? 'skills/' : ''}${entry}' skipped: ${describe(error)}`);
        continue;
      }
      if (found.has(parsed.name)) {
        this.options.onLog?.('warn', `skill '${entry}' skipped: another folder already defines the skill '${parsed.name}'`);
        continue;
      }
      if (shipped.has(parsed.name)) this.options.onLog?.('info', `user skill '${parsed.name}' replaces the shipped skill of that name`);
      found.set(parsed.name, { name: parsed.name, description: parsed.description, source, folder: skillFolder });
    }
    return found;
  }

  private read(skillFolder: string): ReturnType<typeof parseSkillFile> {
    const file = path.join(skillFolder, SKILL_FILE_NAME);
    const size = fs.statSync(file).size;
    if (size > MAX_SKILL_FILE_BYTES) throw new SkillFileError(`its ${SKILL_FILE_NAME} is ${size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit`);
    return parseSkillFile(fs.readFileSync(file, 'utf8'));
  }
}

/** Sub-folders holding a SKILL.md, in name order; a missing folder has none. */
function skillFolders(folder: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()) && statOf(path.join(folder, e.name, SKILL_FILE_NAME)) !== undefined)
    .map((e) => e.name)
    .sort();
}

function folderSignature(folder: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(folder).sort();
  } catch {
    return '';
  }
  return names
    .map((name) => {
      const stat = statOf(path.join(folder, name, SKILL_FILE_NAME));
      return stat ? `${name}:${stat.size}:${stat.mtimeMs}` : name;
    })
    .join('/');
}

/** undefined for anything that cannot be stat'ed (missing, or a file standing where a folder should be). */
function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Files below the skill folder other than SKILL.md; links are listed but not followed. */
function listFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_LISTED_FILES) return;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (rel !== SKILL_FILE_NAME) out.push(rel);
    }
  };
  walk(folder, '');
  return out;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function describe(error: unknown): string {
  if (error instanceof SkillFileError) return `${SKILL_FILE_NAME}: ${error.message}`;
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${SKILL_FILE_NAME} cannot be read (${code})` : String(error);
}
