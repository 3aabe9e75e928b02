/**
 * Manifest errors and warnings. Every problem names the file, the position when known, the manifest path
 * (`tools[3].inputSchema.properties.city`) and a one-line reason; `format()` prints exactly that line.
 */

export type ManifestPath = readonly (string | number)[];

/** `["tools", 3, "inputSchema", "properties", "city"]` → `tools[3].inputSchema.properties.city`. */
export function formatPath(path: ManifestPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment)) out += out.length === 0 ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export interface ManifestPosition {
  readonly line: number;
  readonly col: number;
}

export interface ManifestDiagnostic {
  readonly path: ManifestPath;
  readonly message: string;
  readonly position?: ManifestPosition;
}

/** Renders `file:line:col: path: reason` (position and path left out when unknown or empty). */
export function formatDiagnostic(file: string, d: ManifestDiagnostic): string {
  const where = d.position ? `${file}:${d.position.line}:${d.position.col}` : file;
  const path = formatPath(d.path);
  return path.length > 0 ? `${where}: ${path}: ${d.message}` : `${where}: ${d.message}`;
}

/** A manifest that cannot be generated from. `message` is the one-line report for the first problem. */
export class ManifestError extends Error {
  constructor(
    readonly file: string,
    readonly diagnostics: readonly ManifestDiagnostic[],
  ) {
    const first = diagnostics[0];
    super(first ? formatDiagnostic(file, first) : `${file}: invalid manifest`);
    this.name = "ManifestError";
  }

  /** One line per problem. */
  lines(): string[] {
    return this.diagnostics.map((d) => formatDiagnostic(this.file, d));
  }
}

/** Thrown inside the lowering with a manifest path; the loader adds file and position. */
export class SchemaProblem extends Error {
  /** The position shown is the key's (an unknown field), not its value's. */
  readonly atKey: boolean;
  constructor(
    readonly path: ManifestPath,
    message: string,
    options: { readonly atKey?: boolean } = {},
  ) {
    super(message);
    this.name = "SchemaProblem";
    this.atKey = options.atKey ?? false;
  }
}
