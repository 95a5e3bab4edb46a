import type { SecretRedactor } from './secret-redactor';

/**
 * Secrets the server obtains while it runs and that stop working at a known time: Google access
 * tokens, a new one about every hour with a refresh token. Each is given to the redactor when it
 * arrives, before anyone uses it, and taken out again once it has expired (at the next arrival),
 * so a server that runs for months does not make every redaction scan thousands of dead tokens.
 * An expired token grants nothing, so showing one later is harmless.
 *
 * A value the redactor already knew (a configured secret) is never taken out: it is not ours.
 */
export class ExpiringSecrets {
  /** The values this object gave the redactor, and when each expires. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly redactor: SecretRedactor,
    private readonly now: () => number = Date.now,
  ) {}

  /** `expiresAt` in epoch ms on `now`; undefined keeps the value for the life of the server. */
  add(value: string, expiresAt: number | undefined): void {
    this.forgetExpired();
    if (this.held.has(value)) {
      // Issued again: it now lives as long as its latest issue says.
      if (expiresAt === undefined) this.held.delete(value);
      else this.held.set(value, Math.max(expiresAt, this.held.get(value) ?? 0));
      return;
    }
    if (this.redactor.has(value)) return;
    this.redactor.add(value);
    // add() ignores values too short to redact by value; there is nothing to take out for those.
    if (expiresAt !== undefined && this.redactor.has(value)) this.held.set(value, expiresAt);
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [value, expiresAt] of this.held) {
      if (expiresAt > now) continue;
      this.redactor.remove(value);
      this.held.delete(value);
    }
  }
}
