/**
 * Where a tool or group comes from. `built-in`: TypeScript tools shipped with the server;
 * `js-built-in`: the shipped JS manifests; `js-user`: files in the user's tools folder.
 */
export type ToolSourceKind = 'built-in' | 'js-built-in' | 'js-user';

export interface ToolOrigin {
  readonly kind: ToolSourceKind;
  /** The manifest (JS) or module (TypeScript) file, for the UI's "by source file" view. */
  readonly fileName?: string;
}

export interface ToolSource extends ToolOrigin {
  /** The group the tool belongs to; absent for a core tool (always offered). */
  readonly group?: string;
}

/**
 * Who owns a group name. All TypeScript built-ins are one owner (their tools live in many
 * files); a JS group is its manifest file, so two files claiming one name are two owners (G9).
 */
export function ownerKey(origin: ToolOrigin): string {
  return origin.kind === 'built-in' ? 'built-in' : `${origin.kind}:${origin.fileName ?? ''}`;
}

export function describeOrigin(origin: ToolOrigin): string {
  if (origin.kind === 'built-in') return origin.fileName ? `the built-in tools (${origin.fileName})` : 'the built-in tools';
  const what = origin.kind === 'js-built-in' ? 'the shipped JS file' : 'the user JS file';
  return origin.fileName ? `${what} '${origin.fileName}'` : what;
}
