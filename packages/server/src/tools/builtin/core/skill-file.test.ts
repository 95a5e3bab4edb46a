import { describe, expect, it } from '@jest/globals';
import { parseSkillFile, SkillFileError } from './skill-file';

describe('parseSkillFile', () => {
  it('reads name and description from the YAML front matter and keeps the body without it', () => {
    expect(parseSkillFile('---\nname: triage\ndescription: "Sort: the inbox"\nlicense: MIT\n---\n\n# Body\n\ntext\n')).toEqual({
      name: 'triage',
      description: 'Sort: the inbox',
      body: '# Body\n\ntext',
    });
  });

  it('accepts Windows line endings, a byte order mark, and an empty body', () => {
    expect(parseSkillFile('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n')).toEqual({ name: 'a', description: 'b', body: '' });
    expect(parseSkillFile('---\nname: a\ndescription: b\n---')).toEqual({ name: 'a', description: 'b', body: '' });
  });

  it('refuses what cannot be listed or loaded, saying what is wrong', () => {
    const cases: [string, string][] = [
      ['name: a\n', 'does not start with YAML front matter'],
      ['---\nname: a\ndescription: b\n', 'does not start with YAML front matter'],
      ['---\nname: 42\ndescription: b\n---\n', 'has no name'],
      [`---\nname: ${'n'.repeat(65)}\ndescription: b\n---\n`, 'longer than 64'],
      ['---\nname: "a\\nb"\ndescription: b\n---\n', 'control character'],
      ['---\nname: a\ndescription: ""\n---\n', 'has no description'],
      [`---\nname: a\ndescription: ${'d'.repeat(1025)}\n---\n`, 'description is longer than 1024'],
      ['---\nname: a\ndescription: [b\n---\n', 'not valid YAML'],
      ['---\njust a string\n---\n', 'must be a YAML mapping'],
    ];
    for (const [text, reason] of cases) {
      let thrown: unknown;
      try {
        parseSkillFile(text);
      } catch (error) {
        thrown = error;
      }
      expect([text, thrown instanceof SkillFileError]).toEqual([text, true]);
      expect((thrown as Error).message).toContain(reason);
    }
  });
});
