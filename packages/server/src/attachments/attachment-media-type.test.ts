import { allowedMediaType, sniffMediaType } from './attachment-media-type';
import { cleanFileName } from './attachment-store';

describe('attachment types and names (issue 15)', () => {
  it('recognises each allowed type by its magic bytes, and nothing else', () => {
    expect(sniffMediaType(Buffer.from('89504e470d0a1a0a00', 'hex'))).toBe('image/png');
    expect(sniffMediaType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(sniffMediaType(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(sniffMediaType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffMediaType(Buffer.from('\n\n%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffMediaType(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffMediaType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffMediaType(Buffer.alloc(0))).toBeUndefined();
  });

  it('takes the Content-Type without parameters and case; refuses others', () => {
    expect(allowedMediaType('Image/PNG; charset=binary')).toBe('image/png');
    expect(allowedMediaType('image/svg+xml')).toBeUndefined();
    expect(allowedMediaType(undefined)).toBeUndefined();
  });

  it('keeps only the last part of a file name, without control characters or quotes', () => {
    expect(cleanFileName('C:\\Users\\me\\scan "1".pdf')).toBe('scan 1.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.png')).toBe('abc.png');
    expect(cleanFileName('..')).toBeUndefined();
    expect(cleanFileName('  ')).toBeUndefined();
  });

  it('keeps at most 200 characters, cut between code points: never half an emoji', () => {
    // 305 UTF-16 units but 155 characters: kept whole (a cut at 200 units left a lone \ud83d).
    const emoji = `a${'😀'.repeat(150)}.pdf`;
    expect(cleanFileName(emoji)).toBe(emoji);
    expect(cleanFileName(`a${'😀'.repeat(250)}`)).toBe(`a${'😀'.repeat(199)}`);
    expect(cleanFileName('x'.repeat(300))).toBe('x'.repeat(200));
  });

  it('replaces a lone surrogate (a name stored by an older version, half an emoji) with U+FFFD', () => {
    expect(cleanFileName(`a${'😀'.repeat(99)}\ud83d`)).toBe(`a${'😀'.repeat(99)}\ufffd`);
    expect(cleanFileName('\ude00scan.pdf')).toBe('\ufffdscan.pdf');
  });
});
