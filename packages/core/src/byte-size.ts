/** A byte count as people read it: "812 B", "2.4 KB", "50 MB". */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}
