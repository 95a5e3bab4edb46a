export interface PermissionRequest {
  readonly toolName: string;
  /** The tool's `requiredPermissions`, never empty (tools that need none are not checked). */
  readonly permissions: readonly string[];
  readonly sessionId: string;
}

export type PermissionDecision = { readonly granted: true } | { readonly granted: false; readonly denied: readonly string[]; readonly message?: string };

/**
 * The port through which the engine asks whether a call may run (the Android app asked the
 * user; a server asks its policy). Checked before every call, not just the first.
 */
export interface PermissionChecker {
  check(request: PermissionRequest): PermissionDecision | Promise<PermissionDecision>;
}

/** The default: a server with no permission policy configured lets declared permissions pass. */
export const grantAllPermissions: PermissionChecker = {
  check: () => ({ granted: true }),
};
