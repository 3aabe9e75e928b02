/**
 * The manifest pipeline: load (validated) → lower (UserModel) → emit → format. Returns files; writing is separate.
 */
import path from "node:path";
import { formatTypeScript, type GeneratedFile } from "../emit/generated-file.ts";
import { emitUserFiles } from "../emit/user/emit-user.ts";
import type { ImportExtension } from "./defaults.ts";
import { formatPath } from "./errors.ts";
import { loadManifest } from "./load-manifest.ts";
import type { UserModel } from "./user-model.ts";
import { outputRecord } from "./write-atomic.ts";

export { DEFAULT_MANIFEST } from "./defaults.ts";
export const DEFAULT_OUT = "generated";

export interface ManifestJob {
  readonly manifestPath: string;
  /** Overrides the manifest's `generate.out` (relative to the current directory). */
  readonly outDir?: string;
  /** Overrides the manifest's `generate.importExtension`. */
  readonly importExtension?: ImportExtension;
}

export interface ManifestOutput {
  readonly model: UserModel;
  /** Absolute output folder. */
  readonly outDir: string;
  /** The generated files, then the outputs record (`.mcp-gen.json`: manifest, its sha256, the file list). */
  readonly files: GeneratedFile[];
  /** `path: message` lines for keywords that widened a type. */
  readonly warnings: string[];
}

function posix(p: string): string {
  return p.split(path.sep).join("/");
}

export async function generateFromManifest(job: ManifestJob): Promise<ManifestOutput> {
  const manifestPath = path.resolve(job.manifestPath);
  // The display path depends on the manifest and output locations only, never on the working directory.
  const first = await loadManifest(job.manifestPath, path.basename(manifestPath));
  const outDir = job.outDir
    ? path.resolve(job.outDir)
    : path.resolve(path.dirname(manifestPath), first.manifest.generate?.out ?? DEFAULT_OUT);
  const displayPath = posix(path.relative(outDir, manifestPath));
  const model: UserModel = {
    ...first.model,
    source: { ...first.model.source, path: displayPath },
    ...(job.importExtension !== undefined ? { importExtension: job.importExtension } : {}),
  };
  const files = await Promise.all(
    emitUserFiles(model).map(async (f) => ({
      path: f.path,
      content: f.path.endsWith(".ts") ? await formatTypeScript(f.content) : f.content,
    })),
  );
  files.push(outputRecord(displayPath, model.source.sha256, files));
  const warnings = model.warnings.map((w) => `${job.manifestPath}: ${formatPath(w.path)}: ${w.message}`);
  return { model, outDir, files, warnings };
}
