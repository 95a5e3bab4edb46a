import { BridgeError, type BridgeHost, type FsOp, type GuestFetchRequest, type HostFetchResponse } from '../sandbox/bridge-host';

/**
 * An in-memory BridgeHost for sandbox tests: files in a Map, fetch answered by a function,
 * a fixed clock. Records every bridge call.
 */
export class FakeBridgeHost implements BridgeHost {
  readonly files = new Map<string, string>();
  readonly libraries = new Map<string, string>();
  readonly calls: { bridge: string; args: unknown }[] = [];
  token: string | undefined = 'fake-access-token';

  constructor(
    private readonly respond: (request: GuestFetchRequest, signal: AbortSignal) => Promise<HostFetchResponse> = async (request) => ({
      status: 200,
      statusText: 'OK',
      url: request.url,
      headers: { 'content-type': 'text/plain' },
      body: new TextEncoder().encode(`echo ${request.method} ${request.url}`),
    }),
  ) {}

  fs(op: FsOp, args: readonly unknown[]): unknown {
    this.calls.push({ bridge: `fs.${op}`, args });
    const path = String(args[0]);
    switch (op) {
      case 'readFile': {
        const content = this.files.get(path);
        if (content === undefined) throw new BridgeError('not_found', `File '${path}' does not exist.`);
        return content;
      }
      case 'writeFile':
        this.files.set(path, String(args[1]));
        return String(args[1]).length;
      case 'appendFile':
        this.files.set(path, (this.files.get(path) ?? '') + String(args[1]));
        return String(args[1]).length;
      case 'exists':
        return this.files.has(path);
      case 'list':
        return [...this.files.keys()].sort().map((name) => ({ name, type: 'file', size: this.files.get(name)?.length ?? 0 }));
      case 'delete':
        return this.files.delete(path);
    }
  }

  fetch(request: GuestFetchRequest, signal: AbortSignal): Promise<HostFetchResponse> {
    this.calls.push({ bridge: 'fetch', args: request });
    return this.respond(request, signal);
  }

  async googleAccessToken(): Promise<string> {
    this.calls.push({ bridge: 'google.getAccessToken', args: [] });
    if (!this.token) throw new BridgeError('google_not_configured', 'Google access is not configured.');
    return this.token;
  }

  librarySource(name: string): { fileName: string; source: string } {
    const source = this.libraries.get(name);
    if (source === undefined) throw new BridgeError('lib_not_found', `Library '${name}' was not found.`);
    return { fileName: `${name}.js`, source };
  }

  formatTime(timezone: string | undefined, format: string | undefined): string {
    return `2026-11-22T10:00:00Z ${timezone ?? 'UTC'} ${format ?? 'iso8601'}`;
  }
}
