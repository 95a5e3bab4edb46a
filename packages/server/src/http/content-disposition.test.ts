import { contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it('gives an ASCII fallback name and the UTF-8 one', () => {
    expect(contentDisposition('Q3 "final" é.pdf')).toBe(`attachment; filename="Q3 _final_ _.pdf"; filename*=UTF-8''Q3%20%22final%22%20%C3%A9.pdf`);
    expect(contentDisposition('😀.pdf')).toBe(`attachment; filename="__.pdf"; filename*=UTF-8''%F0%9F%98%80.pdf`);
  });

  it('answers for a name holding half an emoji (stored by an older version) instead of throwing "URI malformed"', () => {
    expect(contentDisposition('a\ud83d')).toBe(`attachment; filename="a_"; filename*=UTF-8''a%EF%BF%BD`);
    expect(contentDisposition('\ude00b.pdf')).toBe(`attachment; filename="_b.pdf"; filename*=UTF-8''%EF%BF%BDb.pdf`);
  });
});
