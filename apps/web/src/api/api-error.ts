/**
 * An answer from the server that was not a success, or a request that never got one. The
 * server's errors are problem+json with a stable `code` and a `detail` that says what to do
 * (docs/api.md); the UI shows `detail` and branches on `code`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** A request that got no answer at all (server down, DNS, CORS, offline). */
  static network(cause: unknown): ApiError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ApiError(0, 'network_error', `Cannot reach the server (${reason}). Check that it is running and the server address is right.`);
  }

  /** Builds the error from a non-2xx answer, whatever its body. */
  static async fromResponse(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    try {
      const problem = JSON.parse(text) as { code?: unknown; detail?: unknown; title?: unknown };
      const code = typeof problem.code === 'string' ? problem.code : `http_${response.status}`;
      const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : response.statusText;
      return new ApiError(response.status, code, detail || `The server answered ${response.status}.`);
    } catch {
      return new ApiError(response.status, `http_${response.status}`, text.slice(0, 300) || `The server answered ${response.status}.`);
    }
  }
}
