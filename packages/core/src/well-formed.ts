/**
 * String#toWellFormed (Node 20): each lone UTF-16 surrogate (half of an emoji, say) becomes U+FFFD.
 * For text bound for a URI or a header, where encodeURIComponent throws "URI malformed" on one. Our
 * ES2022 lib types lack it.
 */
export function toWellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}
