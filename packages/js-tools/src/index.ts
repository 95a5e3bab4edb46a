// Sandbox
export { compileScript, ScriptSyntaxError, type CompiledScript, type CompileOptions } from './sandbox/compiled-script';
export type { JsCall, JsCallErrorType, JsCallOutcome, JsLogLine, JsRunner, SandboxLimitKind, ScriptCode } from './sandbox/js-call';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox/sandbox-limits';
export { runJsCall, type RunOptions } from './sandbox/run-js-call';
export { loadQuickJs } from './sandbox/quickjs-module';
export { InProcessJsRunner, IN_PROCESS_MAX_STACK_BYTES } from './sandbox/in-process-js-runner';
export { WorkerJsRunner, type WorkerJsRunnerOptions } from './sandbox/worker-js-runner';
export {
  BridgeError,
  FETCH_METHODS,
  FS_OPS,
  type BridgeHost,
  type FetchMethod,
  type FsOp,
  type GuestFetchRequest,
  type GuestMultipartPart,
  type HostFetchResponse,
} from './sandbox/bridge-host';
export { REDACTED, secretRedactor, type SecretRedactor } from './sandbox/secret-redactor';

// Bridges
export { createBridgeHost, type BridgeHostConfig, type BridgeServices, type ClosableBridgeHost } from './bridges/create-bridge-host';
export { formatTime, systemTimeZone, type TimeFormat } from './bridges/format-time';
export { LibraryFolders } from './bridges/library-folders';
export { createGoogleTokenProvider, GOOGLE_TOKEN_URL, type GoogleAuthConfig, type GoogleTokenProvider, type GoogleTokenProviderOptions } from './bridges/google-token-provider';

// Files and network
export { ConfinedFs, DEFAULT_MAX_FS_BYTES, type ConfinedFsOptions, type FsEntry } from './fs/confined-fs';
export type { ConfinedWriteStream } from './fs/confined-write-stream';
export type { FsEncoding } from './fs/fs-encoding';
export { FsError, type FsErrorCode } from './fs/fs-error';
export {
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  resolveFetchPolicy,
  systemResolve,
  type FetchPolicy,
  type ResolvedAddress,
  type ResolvedFetchPolicy,
} from './net/fetch-policy';
export { checkTargetUrl, classifyAddress, isPublicAddress, type AddressClass, type TargetCheckOptions, type UrlVerdict } from './net/address-policy';
export { buildMultipart, type MultipartPart, type MultipartSubtype } from './net/multipart';
export { FetchError, SafeFetch, type FetchErrorCode, type HttpMethod, type HttpRequest, type HttpResponse, type RequestOptions } from './net/safe-fetch';

// Tools
export { JsTool, type JsToolOptions } from './tools/js-tool';

// Manifests, the catalogue loader, the user tools folder
export {
  DEFAULT_FUNCTION_NAME,
  MAX_TOOLS_PER_GROUP,
  describeToolNames,
  displayNameFromFile,
  MAX_MANIFEST_TIMEOUT_MS,
  parseManifest,
  type ManifestEntry,
  type ManifestProblem,
  type ManifestProblemCode,
  type ParsedManifest,
} from './manifest/parse-manifest';
export { JsToolCatalogue, type CatalogueReport, type FileReport, type JsToolCatalogueOptions, type JsToolFolder } from './manifest/js-tool-catalogue';
export { TOOL_BASE_NAME_PATTERN } from './manifest/tool-file-pair';
export { DEFAULT_FOLDER_POLL_MS, DEFAULT_WATCH_DEBOUNCE_MS, UserToolsWatcher, type RescanReport, type UserToolsWatcherOptions } from './manifest/user-tools-watcher';
export {
  UserToolError,
  UserToolManager,
  type UserToolChanges,
  type UserToolErrorCode,
  type UserToolInfo,
  type UserToolInput,
  type UserToolManagerOptions,
} from './manifest/user-tool-manager';
