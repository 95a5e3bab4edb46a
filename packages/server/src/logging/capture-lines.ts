import type { DestinationStream } from 'pino';

/** A pino destination that keeps each written line; lets tests read exactly what would be logged. */
export class CapturedLines implements DestinationStream {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line.endsWith('\n') ? line.slice(0, -1) : line);
  }

  /** Every line parsed as JSON, in order. */
  records(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  text(): string {
    return this.lines.join('\n');
  }
}
