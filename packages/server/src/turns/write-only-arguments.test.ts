import { describe, expect, it } from '@jest/globals';
import { redactWriteOnly } from './write-only-arguments';

const manageEnvVar = {
  type: 'object',
  properties: { action: { type: 'string' }, key: { type: 'string' }, value: { type: 'string', writeOnly: true } },
};

describe('redactWriteOnly: tool-call arguments as recorded', () => {
  it('replaces the value of a writeOnly property with the marker and keeps the rest (the input is not changed)', () => {
    const args = { action: 'set', key: 'TOKEN', value: 'hunter2-secret' };
    expect(redactWriteOnly(args, manageEnvVar)).toEqual({ action: 'set', key: 'TOKEN', value: '[Redacted]' });
    expect(args.value).toBe('hunter2-secret');
  });

  it('reaches writeOnly properties in nested objects and array items, whatever their type', () => {
    const schema = {
      type: 'object',
      properties: {
        accounts: { type: 'array', items: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } } } },
        auth: { type: 'object', properties: { pin: { type: 'integer', writeOnly: true } } },
      },
    };
    expect(redactWriteOnly({ accounts: [{ user: 'a', password: 'p1' }, { user: 'b' }], auth: { pin: 1234 } }, schema)).toEqual({
      accounts: [{ user: 'a', password: '[Redacted]' }, { user: 'b' }],
      auth: { pin: '[Redacted]' },
    });
  });

  it('leaves arguments alone when the schema marks nothing, is missing (unknown tool) or does not match their shape', () => {
    const args = { action: 'list' };
    expect(redactWriteOnly(args, manageEnvVar)).toBe(args);
    expect(redactWriteOnly({ value: 'x' }, undefined)).toEqual({ value: 'x' });
    expect(redactWriteOnly({ value: ['a'] }, { type: 'object', properties: { value: { type: 'object', properties: { x: { writeOnly: true } } } } })).toEqual({ value: ['a'] });
  });
});
