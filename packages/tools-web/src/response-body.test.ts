import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { bodyKind, decodeContentEncoding, decodeText, parseContentType } from './response-body';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('response bodies', () => {
  it('parses a Content-Type into a lower-case media type and charset', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({ mediaType: 'text/html', charset: 'iso-8859-1' });
    expect(parseContentType(undefined)).toEqual({ mediaType: '', charset: undefined });
  });

  it('classifies HTML, text-like types and unreadable ones; sniffs when there is no Content-Type', () => {
    expect(bodyKind('application/xhtml+xml', bytes(''))).toBe('html');
    for (const type of ['text/csv', 'text/markdown', 'application/json', 'application/vnd.api+json', 'image/svg+xml', 'application/yaml']) {
      expect(bodyKind(type, bytes(''))).toBe('text');
    }
    for (const type of ['image/png', 'application/pdf', 'application/zip', 'application/octet-stream', 'video/mp4']) {
      expect(bodyKind(type, bytes('x'))).toBeUndefined();
    }
    expect(bodyKind('', bytes('  <!DOCTYPE html><p>x'))).toBe('html');
    expect(bodyKind('', bytes('plain words'))).toBe('text');
    expect(bodyKind('', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]))).toBeUndefined();
  });

  it('decodes with the declared charset, a <meta charset> in HTML, or UTF-8 (also for an unknown charset name)', () => {
    expect(decodeText(bytes('caf\xe9'), 'windows-1252', 'text')).toBe('café');
    expect(decodeText(bytes('<meta charset="iso-8859-1"><p>caf\xe9'), undefined, 'html')).toContain('café');
    expect(decodeText(Buffer.from('café'), undefined, 'text')).toBe('café');
    expect(decodeText(Buffer.from('café'), 'no-such-charset', 'text')).toBe('café');
  });

  it('undoes gzip, refuses a body that expands past the limit (response_too_large) and an unknown encoding (network_error)', () => {
    expect(decodeContentEncoding(gzipSync('hello'), 'gzip', 100, 'http://x').toString()).toBe('hello');
    expect(decodeContentEncoding(Buffer.from('as is'), undefined, 100, 'http://x').toString()).toBe('as is');
    expect(() => decodeContentEncoding(gzipSync('y'.repeat(1000)), 'gzip', 100, 'http://x')).toThrow(expect.objectContaining({ code: 'response_too_large' }));
    expect(() => decodeContentEncoding(Buffer.from('x'), 'zstd-ish', 100, 'http://x')).toThrow(expect.objectContaining({ code: 'network_error' }));
  });
});
