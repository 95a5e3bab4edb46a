import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolRegistryError, type Tool, type ToolGroupDefinition, type ToolOrigin, type ToolRegistry, type ToolSource } from '@oneclaw/tool-registry';
import { ScriptSyntaxError, compileScript, type CompiledScript } from '../sandbox/compiled-script';
import type { JsRunner } from '../sandbox/js-call';
import type { SandboxLimits } from '../sandbox/sandbox-limits';
import { JsTool } from '../tools/js-tool';
import { parseManifest, type ManifestProblem, type ManifestProblemCode } from './parse-manifest';
import { isToolBaseName, listManifestBaseNames, readToolFilePair, type ToolFilePair } from './tool-file-pair';

export interface JsToolFolder {
  readonly path: string;
  readonly kind: 'js-built-in' | 'js-user';
}

export interface JsToolCatalogueOptions {
  readonly registry: ToolRegistry;
  readonly runner: JsRunner;
  /** Loaded in this order by loadAll: put the built-in folder first. */
  readonly folders: readonly JsToolFolder[];
  /**
   * Let files from `js-user` folders replace tools that are already registered (TypeScript
   * built-ins, shipped JS tools, other user files). The user's tool wins; the one it displaced
   * comes back when the user file stops defining the name. Default false: such a tool is refused.
   */
  readonly allowOverride?: boolean;
  readonly limits?: Partial<SandboxLimits>;
}

/** One manifest file and what became of it: for the settings UI and for logs. */
export interface FileReport {
  /** The script, e.g. `google_drive.js`: the name tools are grouped under (FEAT-018 settings UI). */
  readonly fileName: string;
  readonly baseName: string;
  readonly kind: JsToolFolder['kind'];
  readonly folder: string;
  /** Undefined when the manifest could not be read as one. */
  readonly manifest: 'single' | 'group' | undefined;
  /** Set while the file's group is registered. */
  readonly group?: ToolGroupDefinition;
  /** The file's tools in the registry now, in manifest order. */
  readonly toolNames: readonly string[];
  readonly problems: readonly ManifestProblem[];
  /** sha256 of the .json and .js as read: a reload with the same version changes nothing. */
  readonly version: string;
}

export interface CatalogueReport {
  readonly files: readonly FileReport[];
  /** Folders that exist but could not be listed, and missing built-in folders. */
  readonly problems: readonly ManifestProblem[];
  readonly toolCount: number;
}

interface FileState {
  readonly key: string;
  readonly folder: JsToolFolder;
  readonly baseName: string;
  report: FileReport;
  script: CompiledScript | undefined;
  /** The slicing switch the script was compiled with. */
  slicing: boolean;
  /** Tool names this file holds in the registry (its own or overridden ones), in manifest order. */
  tools: string[];
  /** The group this file registered. */
  group: string | undefined;
  /** A tool or the group was refused because another source holds the name: retried when names free up. */
  conflicted: boolean;
}

interface PlannedTool {
  readonly name: string;
  readonly tool: JsTool;
}

interface Plan {
  readonly manifest: FileReport['manifest'];
  readonly group: ToolGroupDefinition | undefined;
  readonly tools: readonly PlannedTool[];
  readonly script: CompiledScript | undefined;
  readonly slicing: boolean;
  readonly problems: ManifestProblem[];
}

/** A tool that a user file overrode, kept so it can come back. */
interface Shadow {
  tool: Tool;
  source: ToolSource;
  /** The catalogue file it came from; undefined for a tool registered by someone else (TypeScript). */
  file: FileState | undefined;
}

/**
 * Loads folders of `<base>.json` + `<base>.js` pairs into a ToolRegistry and keeps the registry in
 * step with the files (J1, J5, J7). A file's JavaScript is compiled once and shared by all of its
 * tools. Bad files never throw and never stop other files: their problems are in their report.
 *
 * The catalogue remembers which file holds each tool name, so a reload can replace kept tools in
 * place (their order stays), unregister the ones that went, and register new ones at the end.
 */
export class JsToolCatalogue {
  private readonly registry: ToolRegistry;
  private readonly states = new Map<string, FileState>();
  private readonly owners = new Map<string, FileState>();
  private readonly shadows = new Map<string, Shadow>();
  /** Files to load again once the current operation is done (a name they wanted may be free). */
  private readonly retry = new Set<FileState>();

  constructor(private readonly options: JsToolCatalogueOptions) {
    this.registry = options.registry;
  }

  /** Loads (or brings up to date) every folder, in order. A file that disappeared is removed. */
  loadAll(): CatalogueReport {
    const problems: ManifestProblem[] = [];
    for (const folder of this.options.folders) {
      const folderPath = resolve(folder.path);
      let baseNames: string[];
      try {
        baseNames = listManifestBaseNames(folderPath);
      } catch (error) {
        problems.push(folderProblem(folderPath, `The tools folder '${folderPath}' could not be read (${errorText(error)}); its tools were not loaded.`));
        continue;
      }
      if (baseNames.length === 0 && folder.kind === 'js-built-in' && !existsSync(folderPath)) {
        problems.push(folderProblem(folderPath, `The built-in JS tools folder '${folderPath}' does not exist; no shipped JS tools were loaded.`, 'warning'));
      }
      const present = new Set(baseNames);
      for (const state of [...this.states.values()]) {
        if (state.report.folder === folderPath && !present.has(state.baseName)) this.drop(state);
      }
      for (const baseName of baseNames) this.load(folder, baseName, false);
    }
    this.settle();
    const files = this.files();
    return { files, problems, toolCount: files.reduce((sum, file) => sum + file.toolNames.length, 0) };
  }

  /**
   * Brings one file's tools in line with the disk: new tools registered, kept ones replaced in
   * place, vanished ones unregistered; an invalid file loses all of its tools. Same version: no-op.
   */
  reloadFile(folder: JsToolFolder, baseName: string): FileReport {
    checkBaseName(baseName);
    const report = this.load(folder, baseName, false);
    this.settle();
    return this.states.get(stateKey(folder, baseName))?.report ?? report;
  }

  /** Unregisters the file's tools and group and forgets it. False when the file was not loaded. */
  removeFile(folder: JsToolFolder, baseName: string): boolean {
    checkBaseName(baseName);
    const state = this.states.get(stateKey(folder, baseName));
    if (!state) return false;
    this.drop(state);
    this.settle();
    return true;
  }

  /** Every loaded file, by folder (in the configured order) and then by name: tools grouped by source file. */
  files(): readonly FileReport[] {
    const order = this.options.folders.map((f) => resolve(f.path));
    const rank = (folder: string) => {
      const index = order.indexOf(folder);
      return index === -1 ? order.length : index;
    };
    return [...this.states.values()]
      .map((s) => s.report)
      .sort((a, b) => rank(a.folder) - rank(b.folder) || a.folder.localeCompare(b.folder) || a.baseName.localeCompare(b.baseName));
  }

  /** The compiled script behind a tool this catalogue registered. */
  scriptOf(toolName: string): CompiledScript | undefined {
    return this.owners.get(toolName)?.script;
  }

  /** The report of one loaded file. */
  fileReport(folder: JsToolFolder, baseName: string): FileReport | undefined {
    return this.states.get(stateKey(folder, baseName))?.report;
  }

  // ---- one file -------------------------------------------------------------------------

  private load(folder: JsToolFolder, baseName: string, force: boolean): FileReport {
    const folderPath = resolve(folder.path);
    const key = stateKey(folder, baseName);
    const pair = readToolFilePair(folderPath, baseName);
    let state = this.states.get(key);
    if (pair.json === undefined && pair.jsonError === undefined) {
      if (state) this.drop(state);
      const missing = problem('error', 'unreadable_file', `${baseName}.json`, `'${baseName}.json' does not exist in '${folderPath}'; the file has no tools.`);
      return { ...emptyReport(folder, folderPath, baseName, pair.version), problems: [missing] };
    }
    if (state && !force && !state.conflicted && state.report.version === pair.version) return state.report;

    if (!state) {
      state = {
        key,
        folder: { kind: folder.kind, path: folderPath },
        baseName,
        // No version until apply records an outcome: a state left behind by a throw must not
        // pass for this content already loaded, or the file would stay listed with no tools and no problem.
        report: emptyReport(folder, folderPath, baseName, NOT_LOADED),
        script: undefined,
        slicing: true,
        tools: [],
        group: undefined,
        conflicted: false,
      };
      this.states.set(key, state);
    }
    this.planAndApply(state, pair);
    return state.report;
  }

  /**
   * plan and apply, with anything they throw turned into a `registration_failed` problem of this
   * file: one file must never stop the others from loading, nor the server from starting. The
   * failure is recorded with the file's version, so it is tried again when the file changes.
   */
  private planAndApply(state: FileState, pair: ToolFilePair): void {
    try {
      this.apply(state, this.plan(state, pair), pair.version);
      return;
    } catch (error) {
      const manifestFile = `${state.baseName}.json`;
      const failure = failedPlan(manifestFile, 'registration_failed', `'${manifestFile}' could not be loaded (${errorText(error)}).`);
      try {
        // Releases whatever the file held before, or got to hold before the throw.
        this.apply(state, failure, pair.version);
      } catch {
        // Even that failed: keep the problem visible, and leave the version unset so the next scan tries again.
        state.report = { ...emptyReport(state.folder, state.folder.path, state.baseName, NOT_LOADED), problems: failure.problems };
      }
    }
  }

  /** Reads the pair into tools without touching the registry. */
  private plan(state: FileState, pair: ToolFilePair): Plan {
    const manifestFile = `${state.baseName}.json`;
    const scriptFile = `${state.baseName}.js`;
    const fail = (code: ManifestProblemCode, message: string, problems: ManifestProblem[] = [], manifest?: Plan['manifest']): Plan =>
      failedPlan(manifestFile, code, message, problems, manifest);

    if (pair.json === undefined) return fail('unreadable_file', `'${manifestFile}' could not be read (${pair.jsonError ?? 'unknown error'}).`);
    const parsed = parseManifest(manifestFile, pair.json);
    const problems = [...parsed.problems];
    if (parsed.kind === undefined || (parsed.entries.length === 0 && !parsed.group)) {
      return { manifest: parsed.kind, group: undefined, tools: [], script: undefined, slicing: parsed.slicing, problems };
    }
    if (pair.js === undefined) {
      const why = pair.jsError ? `could not be read (${pair.jsError})` : 'is missing';
      return fail('missing_script', `'${scriptFile}' ${why}: every manifest needs its JavaScript file next to it.`, problems, parsed.kind);
    }

    // The same source with the same slicing switch: the compiled script is kept (a retry after a
    // name clash, or a manifest-only edit, does not parse the JavaScript again).
    let script = state.script;
    if (!script || script.source !== pair.js || state.slicing !== parsed.slicing) {
      try {
        script = compileScript(scriptFile, pair.js, { slicing: parsed.slicing });
      } catch (error) {
        if (!(error instanceof ScriptSyntaxError)) throw error;
        return fail('script_syntax_error', `${error.message}.`, problems, parsed.kind);
      }
    }

    const tools: PlannedTool[] = [];
    for (const entry of parsed.entries) {
      const name = entry.definition.name;
      if (!script.functionNames.has(entry.functionName)) {
        problems.push(
          problem(
            'warning',
            'function_not_defined',
            manifestFile,
            `Tool '${name}' in '${manifestFile}' calls function '${entry.functionName}', which '${scriptFile}' does not define at the top level; ` +
              `its calls will fail with "Function '${entry.functionName}' is not defined" until it does.`,
            name,
          ),
        );
      }
      const tool = new JsTool({
        definition: entry.definition,
        script,
        functionName: entry.functionName,
        runner: this.options.runner,
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      });
      tools.push({ name, tool });
    }
    return { manifest: parsed.kind, group: parsed.group, tools, script, slicing: parsed.slicing, problems };
  }

  /** Makes the registry hold exactly the plan's tools for this file. */
  private apply(state: FileState, plan: Plan, version: string): void {
    const manifestFile = `${state.baseName}.json`;
    const origin: ToolOrigin = { kind: state.folder.kind, fileName: `${state.baseName}.js` };
    const problems = [...plan.problems];
    let tools = plan.tools;
    let group: string | undefined;
    state.conflicted = false;

    if (plan.group) {
      const claimed = this.claimGroup(state, plan.group, origin);
      if (claimed === true) {
        group = plan.group.name;
      } else {
        problems.push(problem('error', claimed.code, manifestFile, `${claimed.message} No tools from '${manifestFile}' were loaded.`));
        state.conflicted = claimed.code === 'group_conflict';
        tools = [];
      }
    }

    const wanted = new Set(tools.map((t) => t.name));
    for (const name of state.tools) if (!wanted.has(name)) this.release(name);
    for (const [name, shadow] of this.shadows) if (shadow.file === state && !wanted.has(name)) this.shadows.delete(name);

    const held: string[] = [];
    const source: ToolSource = group ? { ...origin, group } : origin;
    for (const { name, tool } of tools) {
      const placed = this.place(state, name, tool, source);
      if (placed.held) held.push(name);
      if (placed.problem) {
        problems.push(problem(placed.problem.severity, placed.problem.code, manifestFile, placed.problem.message, name));
        if (placed.problem.code === 'tool_conflict') state.conflicted = true;
      }
    }
    state.tools = held;

    if (state.group !== undefined && state.group !== group) this.registry.unregisterGroup(state.group);
    state.group = group;
    state.script = plan.script;
    state.slicing = plan.slicing;
    state.report = {
      ...emptyReport(state.folder, state.folder.path, state.baseName, version),
      manifest: plan.manifest,
      ...(group && plan.group ? { group: this.registry.group(group)?.definition ?? plan.group } : {}),
      toolNames: held,
      problems,
    };
  }

  private claimGroup(state: FileState, group: ToolGroupDefinition, origin: ToolOrigin): true | { code: ManifestProblemCode; message: string } {
    try {
      if (state.group === group.name) {
        const current = this.registry.group(group.name)?.definition;
        if (current?.displayName !== group.displayName || current.description !== group.description) this.registry.replaceGroup(group, origin);
      } else {
        this.registry.registerGroup(group, origin);
      }
      return true;
    } catch (error) {
      const code = error instanceof ToolRegistryError && error.code === 'group_conflict' ? 'group_conflict' : 'registration_failed';
      return { code, message: errorText(error) };
    }
  }

  /** Puts one tool of the file into the registry; `held` when the file holds the name afterwards. */
  private place(state: FileState, name: string, tool: JsTool, source: ToolSource): { held: boolean; problem?: Omit<ManifestProblem, 'file'> } {
    const manifestFile = `${state.baseName}.json`;
    const owner = this.owners.get(name);
    const shadow = this.shadows.get(name);
    try {
      if (owner === state) {
        if (this.registry.has(name)) this.registry.replace(tool, source);
        else this.registry.register(tool, source);
        return { held: true };
      }
      if (shadow && shadow.file === state) {
        // A user file overrides this name: keep the new version for when that override goes.
        shadow.tool = tool;
        shadow.source = source;
        const by = owner ? `the user JS file '${owner.report.fileName}'` : 'another tool';
        const message = `Tool '${name}' from '${manifestFile}' is overridden by ${by}; it comes back when that file stops defining it.`;
        return { held: false, problem: { severity: 'warning', code: 'tool_overridden', message } };
      }
      const existing = this.registry.get(name);
      if (existing && this.options.allowOverride && state.folder.kind === 'js-user') {
        this.registry.replace(tool, source);
        this.shadows.set(name, { tool: existing.tool, source: existing.source, file: owner });
        this.owners.set(name, state);
        if (owner) {
          owner.tools = owner.tools.filter((n) => n !== name);
          this.retry.add(owner);
        }
        const message =
          `Tool '${name}' from '${manifestFile}' overrides the tool of the same name from ${describeSource(existing.source)}; ` +
          `removing it from '${manifestFile}' brings that one back.`;
        return { held: true, problem: { severity: 'warning', code: 'tool_overridden', message } };
      }
      // A taken name throws duplicate_tool here, with a message that names both sources.
      this.registry.register(tool, source);
      this.owners.set(name, state);
      return { held: true };
    } catch (error) {
      if (owner === state) this.release(name);
      const code = error instanceof ToolRegistryError && error.code === 'duplicate_tool' ? 'tool_conflict' : 'registration_failed';
      return { held: false, problem: { severity: 'error', code, message: `${errorText(error)} (Skipped from '${manifestFile}'.)` } };
    }
  }

  /** Takes a name away from the file that holds it, bringing back an overridden tool if there is one. */
  private release(name: string): void {
    const owner = this.owners.get(name);
    this.owners.delete(name);
    if (owner) owner.tools = owner.tools.filter((n) => n !== name);
    const shadow = this.shadows.get(name);
    this.shadows.delete(name);
    let restored = false;
    if (shadow) {
      try {
        this.registry.replace(shadow.tool, shadow.source);
        restored = true;
      } catch {
        // Its group is gone, for example: the name is simply freed.
      }
    }
    if (restored && shadow?.file) {
      this.owners.set(name, shadow.file);
      shadow.file.tools.push(name);
      this.retry.add(shadow.file);
    }
    if (!restored) this.registry.unregister(name);
    for (const state of this.states.values()) if (state.conflicted) this.retry.add(state);
  }

  private drop(state: FileState): void {
    for (const name of [...state.tools]) this.release(name);
    for (const [name, shadow] of this.shadows) if (shadow.file === state) this.shadows.delete(name);
    if (state.group !== undefined) this.registry.unregisterGroup(state.group);
    this.states.delete(state.key);
    this.retry.delete(state);
  }

  /** One pass over the files that may load better now that names moved; never loops. */
  private settle(): void {
    const pending = [...this.retry];
    this.retry.clear();
    for (const state of pending) {
      if (this.states.get(state.key) === state) this.load(state.folder, state.baseName, true);
    }
    this.retry.clear();
  }
}

/** The version of a file state whose outcome is not recorded yet: matches no file's content. */
const NOT_LOADED = '';

/** A plan that loads none of the file's tools, with the reason as an error. */
function failedPlan(manifestFile: string, code: ManifestProblemCode, message: string, problems: readonly ManifestProblem[] = [], manifest?: Plan['manifest']): Plan {
  return {
    manifest,
    group: undefined,
    tools: [],
    script: undefined,
    slicing: true,
    problems: [...problems, problem('error', code, manifestFile, `${message} No tools from '${manifestFile}' were loaded.`)],
  };
}

function stateKey(folder: JsToolFolder, baseName: string): string {
  return `${resolve(folder.path)}\n${baseName}`;
}

function checkBaseName(baseName: string): void {
  if (!isToolBaseName(baseName)) throw new TypeError(`'${baseName}' is not a tool file base name (no folders, not hidden).`);
}

function emptyReport(folder: JsToolFolder, folderPath: string, baseName: string, version: string): FileReport {
  return { fileName: `${baseName}.js`, baseName, kind: folder.kind, folder: folderPath, manifest: undefined, toolNames: [], problems: [], version };
}

function problem(severity: ManifestProblem['severity'], code: ManifestProblemCode, file: string, message: string, tool?: string): ManifestProblem {
  return { severity, code, file, ...(tool ? { tool } : {}), message };
}

function folderProblem(folderPath: string, message: string, severity: ManifestProblem['severity'] = 'error'): ManifestProblem {
  return problem(severity, 'unreadable_file', folderPath, message);
}

function describeSource(source: ToolSource): string {
  if (source.kind === 'built-in') return 'the built-in tools';
  const what = source.kind === 'js-built-in' ? 'the shipped JS file' : 'the user JS file';
  return source.fileName ? `${what} '${source.fileName}'` : what;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
