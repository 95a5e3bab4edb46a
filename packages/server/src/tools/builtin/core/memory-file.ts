import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';

export const MEMORY_CATEGORIES = ['profile', 'preferences', 'interests', 'habits', 'projects', 'notes'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
export const MEMORY_FILE_NAME = 'MEMORY.md';
export const MAX_MEMORY_ENTRY_CHARS = 5000;
/** Entries this short are refused as duplicates only when identical (origin: "substring dedup over 20 chars"). */
export const MIN_SUBSTRING_DEDUP_CHARS = 20;
/** About 1 500 tokens: enough for a profile and preferences, small next to a conversation. */
export const MEMORY_PROMPT_MAX_CHARS = 6000;
export const MEMORY_PROMPT_HEADING = '## Memory';
export const MEMORY_PROMPT_INSTRUCTION =
  'Facts about the user saved with `save_memory` in earlier conversations. Use them; search older conversations and entries not shown here with `search_history`.';

export interface MemoryEntry {
  readonly category: MemoryCategory;
  /** YYYY-MM-DD the entry was saved; '' for a line added by hand without a date. */
  readonly date: string;
  readonly text: string;
}

/** The entries as of one version of the file; `version` changes whenever the file does. */
export interface MemorySnapshot {
  readonly version: string;
  readonly entries: readonly MemoryEntry[];
}

export interface MemoryFileOptions {
  /** `<data dir>/memory`; the file is MEMORY.md inside it. */
  readonly folder: string;
  readonly now?: () => Date;
  /** Zone of entry dates (default: the server's). */
  readonly timeZone?: string;
}

const TITLES: Readonly<Record<MemoryCategory, string>> = {
  profile: 'Profile',
  preferences: 'Preferences',
  interests: 'Interests',
  habits: 'Habits',
  projects: 'Projects',
  notes: 'Notes',
};
/** Which entries the prompt keeps first when they do not all fit. */
const PROMPT_PRIORITY: readonly MemoryCategory[] = ['profile', 'preferences', 'habits', 'interests', 'projects', 'notes'];
const FILE_HEADER = '# Memory\n\nSaved with save_memory: one section per category, each entry with the date it was saved. You may edit this file by hand.\n';
const HEADING = /^##\s+(.+?)\s*$/;
const ENTRY = /^[-*]\s+(?:\[(\d{4}-\d{2}-\d{2})\]\s*)?(.*)$/;

/**
 * The user's long-term memory: a Markdown file in the data directory, one `## Category` section
 * per category and one `- [YYYY-MM-DD] text` entry per fact (continuation lines indented by two
 * spaces). People may edit it by hand: lines this class does not understand are kept as they are.
 *
 * Writes are serialized on this server and atomic (a temporary file renamed over the old one),
 * so a crash leaves either the old file or the new one. Reads are cached by the file's size and
 * modification time, so a hand edit is seen on the next read.
 */
export class MemoryFile {
  readonly file: string;
  private readonly now: () => Date;
  private readonly dates: Intl.DateTimeFormat;
  private writing: Promise<unknown> = Promise.resolve();
  private cached: (MemorySnapshot & { prompt?: string }) | undefined;

  constructor(options: MemoryFileOptions) {
    this.file = path.join(options.folder, MEMORY_FILE_NAME);
    this.now = options.now ?? (() => new Date());
    this.dates = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  /** The entries now (the file read again only when it changed). */
  snapshot(): MemorySnapshot {
    try {
      const version = this.version();
      if (this.cached?.version !== version) {
        this.cached = { version, entries: version === 'none' ? [] : parseMemory(fs.readFileSync(this.file, 'utf8')) };
      }
      return this.cached;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new OneClawError('memory_unreadable', `The memory file cannot be read (${code}). Ask the operator to check memory/${MEMORY_FILE_NAME} in the data directory.`, {
        errno: code,
      });
    }
  }

  /**
   * Appends an entry to its category, dated today. Refused as `duplicate_detected` when it repeats
   * an entry: after normalising case and spaces, one contains the other and the shorter is over
   * 20 characters (or they are identical).
   */
  save(content: string, category: MemoryCategory = 'notes'): Promise<MemoryEntry> {
    const run = () => this.append(content, category);
    const done = this.writing.then(run, run);
    this.writing = done.catch(() => undefined);
    return done;
  }

  /**
   * The system prompt section: entries by category, as many as fit in MEMORY_PROMPT_MAX_CHARS
   * (profile first, then preferences, habits, interests, projects, notes; newest first within a
   * category); a last line counts the ones left out, which search_history still finds. Empty when
   * there is no memory.
   */
  promptSection(): string {
    const snapshot = this.snapshot();
    const cached = this.cached as MemorySnapshot & { prompt?: string };
    return (cached.prompt ??= renderMemoryPrompt(snapshot.entries, MEMORY_PROMPT_MAX_CHARS));
  }

  private async append(content: string, category: MemoryCategory): Promise<MemoryEntry> {
    const text = cleanContent(content);
    if (text === '') throw new OneClawError('missing_parameter', 'The content is empty. Give the fact to remember, e.g. "The user prefers short answers."');
    if (text.length > MAX_MEMORY_ENTRY_CHARS) {
      throw new OneClawError(
        'content_too_long',
        `The content is ${text.length} characters; at most ${MAX_MEMORY_ENTRY_CHARS} fit in one entry. Save the essentials, or split it into several entries.`,
      );
    }
    if (!(MEMORY_CATEGORIES as readonly string[]).includes(category)) {
      throw new OneClawError('invalid_category', `Category '${category}' does not exist. Use one of: ${MEMORY_CATEGORIES.join(', ')}.`);
    }
    const existing = this.snapshot().entries;
    const duplicate = findDuplicate(text, existing);
    if (duplicate) {
      throw new OneClawError(
        'duplicate_detected',
        `Memory already holds this (${duplicate.category}, ${duplicate.date || 'undated'}): "${preview(duplicate.text)}". Nothing was saved.`,
      );
    }
    const entry: MemoryEntry = { category, date: this.dates.format(this.now()), text };
    const current = this.version() === 'none' ? FILE_HEADER : fs.readFileSync(this.file, 'utf8');
    await writeAtomically(this.file, insertEntry(current, entry));
    return entry;
  }

  private version(): string {
    try {
      // Checked before every model request: a missing file (the usual case until something is
      // saved) answers undefined rather than an ENOENT error, whose stack costs ten times the stat.
      const stat = fs.statSync(this.file, { throwIfNoEntry: false });
      return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : 'none';
    } catch (error) {
      // ENOTDIR (a file where a folder of the path should be) still throws: the memory folder is
      // missing in a way a write will report.
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return 'none';
      throw error;
    }
  }
}

/** The entries of a memory file; lines outside known category sections are not entries. */
export function parseMemory(text: string): MemoryEntry[] {
  const entries: { category: MemoryCategory; date: string; lines: string[] }[] = [];
  let category: MemoryCategory | undefined;
  let open: (typeof entries)[number] | undefined;
  for (const line of text.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading || line.startsWith('# ')) {
      category = heading ? categoryOf(heading[1] ?? '') : undefined;
      open = undefined;
      continue;
    }
    const entry = category ? ENTRY.exec(line) : null;
    if (category && entry) {
      open = { category, date: entry[1] ?? '', lines: [entry[2] ?? ''] };
      entries.push(open);
    } else if (open && /^\s+\S/.test(line)) {
      open.lines.push(line.trim());
    } else {
      open = undefined;
    }
  }
  return entries.map((e) => ({ category: e.category, date: e.date, text: e.lines.join('\n').trim() })).filter((e) => e.text !== '');
}

/** The entry that makes `text` a duplicate (origin rule: substring either way, the shorter over 20 characters). */
export function findDuplicate(text: string, entries: readonly MemoryEntry[]): MemoryEntry | undefined {
  const candidate = normalise(text);
  return entries.find((entry) => {
    const known = normalise(entry.text);
    if (known === candidate) return true;
    const [shorter, longer] = known.length <= candidate.length ? [known, candidate] : [candidate, known];
    return shorter.length > MIN_SUBSTRING_DEDUP_CHARS && longer.includes(shorter);
  });
}

export function renderMemoryPrompt(entries: readonly MemoryEntry[], maxChars: number): string {
  if (entries.length === 0) return '';
  const line = (e: MemoryEntry) => `- ${e.date ? `[${e.date}] ` : ''}${e.text.replace(/\n/g, '\n  ')}`;
  const kept = new Set<MemoryEntry>();
  let used = 0;
  for (const category of PROMPT_PRIORITY) {
    const newestFirst = entries.filter((e) => e.category === category).reverse();
    for (const entry of newestFirst) {
      const size = line(entry).length + 1;
      if (used + size > maxChars) continue;
      kept.add(entry);
      used += size;
    }
  }
  const sections = MEMORY_CATEGORIES.map((category) => {
    const lines = entries.filter((e) => e.category === category && kept.has(e)).map(line);
    return lines.length === 0 ? '' : `### ${TITLES[category]}\n${lines.join('\n')}`;
  }).filter(Boolean);
  const left = entries.length - kept.size;
  const note = left > 0 ? `\n\n(${left} more ${left === 1 ? 'entry is' : 'entries are'} not shown here: find them with search_history, scope "memory".)` : '';
  return `${MEMORY_PROMPT_HEADING}\n\n${MEMORY_PROMPT_INSTRUCTION}\n\n${sections.join('\n\n')}${note}`;
}

/** The file with `entry` at the end of its category's section (the section created in category order). */
export function insertEntry(text: string, entry: MemoryEntry): string {
  const lines = text.replace(/\s+$/, '').split(/\r?\n/);
  const [first = '', ...rest] = entry.text.split('\n');
  const entryLines = [`- [${entry.date}] ${first}`, ...rest.map((l) => `  ${l}`)];
  const headingAt = (category: MemoryCategory) => lines.findIndex((l) => categoryOf(HEADING.exec(l)?.[1] ?? '') === category);
  const start = headingAt(entry.category);
  if (start >= 0) {
    let end = lines.findIndex((l, i) => i > start && (HEADING.test(l) || l.startsWith('# ')));
    if (end < 0) end = lines.length;
    let at = end;
    while (at > start + 1 && (lines[at - 1] ?? '').trim() === '') at -= 1;
    const block = at === start + 1 ? ['', ...entryLines] : [...entryLines];
    // The next section's heading keeps a blank line above it.
    if (at === end && end < lines.length) block.push('');
    lines.splice(at, 0, ...block);
    return `${lines.join('\n')}\n`;
  }
  // A new section goes before the first section of a later category, else at the end.
  const later = MEMORY_CATEGORIES.slice(MEMORY_CATEGORIES.indexOf(entry.category) + 1)
    .map(headingAt)
    .filter((i) => i >= 0)
    .sort((a, b) => a - b)[0];
  const section = [`## ${TITLES[entry.category]}`, '', ...entryLines];
  if (later === undefined) return `${[...lines, '', ...section].join('\n')}\n`;
  lines.splice(later, 0, ...((lines[later - 1] ?? '').trim() === '' ? [] : ['']), ...section, '');
  return `${lines.join('\n')}\n`;
}

function categoryOf(title: string): MemoryCategory | undefined {
  const lower = title.trim().toLowerCase();
  return MEMORY_CATEGORIES.find((c) => c === lower);
}

/** Trimmed lines, no empty ones (an empty line would end the entry in the file). */
function cleanContent(content: string): string {
  return content
    .split(/\r?\n/)
    .map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim())
    .filter((l) => l !== '')
    .join('\n');
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    throw new OneClawError(
      'memory_write_failed',
      `The memory file could not be written (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing was saved. Try again later.`,
    );
  }
}
