import { describe, expect, test } from '@jest/globals';
import { draftCommandNote } from './draft-command-note';

describe('S6 the new-session draft does not send /clear or /compact', () => {
  test('either command, blanks around it aside, gets a note instead of starting a session', () => {
    expect(draftCommandNote('/clear')).toBe('There is nothing to clear yet: this session has not started.');
    expect(draftCommandNote('  /clear\n')).toBe('There is nothing to clear yet: this session has not started.');
    expect(draftCommandNote('/compact')).toBe('There is nothing to compact yet: this session has not started.');
  });

  test('anything else is a first message', () => {
    for (const text of ['hello', '/clear the table', 'please /compact', '/CLEAR', '']) expect(draftCommandNote(text)).toBeUndefined();
  });
});
