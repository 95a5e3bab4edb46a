import path from 'node:path';

/** Where user data lives inside the data directory (docs/js-tools.md, docs/builtin-tools.md). */
export interface DataPaths {
  /** User JS tools (`<name>.json` + `<name>.js`), watched for changes. */
  readonly userTools: string;
  /** User libraries for `lib()`. */
  readonly userLib: string;
  /** The root every file tool is confined to (read_file, write_file, pdf, exec's working directory). */
  readonly files: string;
  /** The memory file of save_memory. */
  readonly memory: string;
  /** User skills for load_skill (folders with a SKILL.md). */
  readonly skills: string;
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    userTools: path.join(dataDir, 'tools'),
    userLib: path.join(dataDir, 'lib'),
    files: path.join(dataDir, 'files'),
    memory: path.join(dataDir, 'memory'),
    skills: path.join(dataDir, 'skills'),
  };
}
