import { parse, YAMLParseError } from 'yaml';

/** What a SKILL.md declares in its front matter, and the instructions after it. */
export interface SkillFile {
  readonly name: string;
  readonly description: string;
  readonly body: string;
}

export const SKILL_FILE_NAME = 'SKILL.md';
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;

/** A SKILL.md that cannot be used; the message says what to fix. */
export class SkillFileError extends Error {}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
// '/' is how load_skill names a file inside a skill; control characters could forge prompt lines.
const BAD_NAME_CHARACTER = /[/\\\u0000-\u001f\u007f]/;

/**
 * Parses a SKILL.md: YAML front matter between `---` lines with a `name` and a `description`
 * (other keys are allowed and ignored), then the Markdown instructions.
 */
export function parseSkillFile(text: string): SkillFile {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new SkillFileError('it does not start with YAML front matter (a "---" line, name: and description:, then another "---" line)');
  let meta: unknown;
  try {
    meta = parse(match[1] ?? '');
  } catch (error) {
    const reason = error instanceof YAMLParseError ? (error.message.split('\n')[0] ?? '').replace(/:$/, '') : String(error);
    throw new SkillFileError(`its front matter is not valid YAML (${reason})`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new SkillFileError('its front matter must be a YAML mapping with name: and description:');
  const { name, description } = meta as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') throw new SkillFileError('its front matter has no name');
  const trimmedName = name.trim();
  if (trimmedName.length > MAX_SKILL_NAME_CHARS) throw new SkillFileError(`its name is longer than ${MAX_SKILL_NAME_CHARS} characters`);
  if (BAD_NAME_CHARACTER.test(trimmedName))
    throw new SkillFileError(`its name '${trimmedName.replace(/[\u0000-\u001f\u007f]/g, '?')}' contains a slash, a backslash or a control character`);
  if (typeof description !== 'string' || description.trim() === '') throw new SkillFileError('its front matter has no description');
  if (description.length > MAX_SKILL_DESCRIPTION_CHARS) throw new SkillFileError(`its description is longer than ${MAX_SKILL_DESCRIPTION_CHARS} characters`);
  return { name: trimmedName, description: description.trim(), body: text.slice(match[0].length).trim() };
}
