/**
 * The manifest pipeline, the same stages as the protocol one (`protocol.ts`): read (the manifest's bytes, the
 * revisions the runtime knows, the bindings folders the manifest names) → parse and lower (`manifest/`, pure: `UserModel`, whose types are the shared IR) →
 * emit (`emit/user/`, pure) → format → the outputs record. Returns files; writing is the write stage's
 * (`output-folder.ts`).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { GeneratedFile } from "../emit/generated-file.ts";
import { emitUserFiles } from "../emit/user/emit-user.ts";
import type { ImportExtension } from "../manifest/defaults.ts";
import { formatPath, ManifestError } from "../manifest/errors.ts";
import { parseManifest } from "../manifest/load-manifest.ts";
import type { Manifest } from "../manifest/manifest-schema.ts";
import type { UserModel } from "../manifest/user-model.ts";
import { CAPABILITY_DECLARATIONS } from "../lower/quirks.ts";
import { formatFiles } from "./format.ts";
import { knownRevisions, lookUpBindings } from "./known-revisions.ts";
import { builtinMethods, recordedSurfaceOf, revisionModel } from "./manifest-surface.ts";
import { outputRecord } from "./output-folder.ts";
import { posixRelative } from "./paths.ts";
import { skillFolderReader } from "./skill-folders.ts";
import { viewFileReader } from "./view-files.ts";

/** The view side of MCP Apps, copied into an output folder with views (a file of the mcp-gen package). */
const APP_VIEW_TEMPLATE = () =>
  path.join(path.dirname(createRequire(import.meta.url).resolve("mcp-gen/package.json")), "templates/apps/app-view.ts");

/** Where output goes without `generate.out` or `--out`: `generated/` next to the manifest. */
const DEFAULT_OUT = "generated";

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

/** The read stage: the manifest's text, or a `ManifestError` saying why it cannot be read. */
async function readManifest(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ManifestError(file, [
      {
        path: [],
        message:
          code === "ENOENT"
            ? "manifest not found; start a project with `mcp-gen init`, or name the manifest with --manifest"
            : `cannot read manifest (${code ?? "error"})`,
      },
    ]);
  }
}

/** The manifest read and lowered (no emission): what `generate` emits from and `diff` compares. */
export interface LoweredManifest {
  readonly model: UserModel;
  /** Absolute output folder. */
  readonly outDir: string;
  /** Absolute path of the manifest. */
  readonly manifestPath: string;
}

export async function generateFromManifest(job: ManifestJob): Promise<ManifestOutput> {
  const { model, outDir, manifestPath } = await lowerManifestJob(job);
  const appViewSource = model.views.length > 0 ? await readFile(APP_VIEW_TEMPLATE(), "utf8") : "";
  const files = await formatFiles(emitUserFiles(model, { appViewSource }));
  const surface = recordedSurfaceOf(model, path.dirname(manifestPath));
  files.push(outputRecord(model.source.path, model.source.sha256, files, surface, embeddedInputs(model)));
  const warnings = model.warnings.map((w) => `${job.manifestPath}: ${formatPath(w.path)}: ${w.message}`);
  return { model, outDir, files, warnings };
}

/** The skill files the output embeds, by path relative to the manifest, with their SHA-256 (sorted). */
function embeddedInputs(model: UserModel): Record<string, string> {
  const files = (model.skills?.skills ?? []).flatMap((s) => s.files.map((f) => [`${s.folder}/${f.path}`, f.sha256]));
  return Object.fromEntries(files.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
}

/** Read and lower; throws `ManifestError` for a missing or invalid manifest. */
export async function lowerManifestJob(job: ManifestJob): Promise<LoweredManifest> {
  const manifestPath = path.resolve(job.manifestPath);
  const text = await readManifest(job.manifestPath);
  const outDirOf = (manifest: Manifest) =>
    job.outDir
      ? path.resolve(job.outDir)
      : path.resolve(path.dirname(manifestPath), manifest.generate?.out ?? DEFAULT_OUT);
  const { manifest, model } = parseManifest(text, {
    file: job.manifestPath,
    // The display path depends on the manifest and output locations only, never on the working directory.
    displayPath: (parsed) => posixRelative(outDirOf(parsed), manifestPath),
    knownRevisions: knownRevisions(),
    bindings: (folder, parsed) => lookUpBindings(folder, path.dirname(manifestPath), outDirOf(parsed)),
    revisionModel: (revision) => revisionModel(revision, path.dirname(manifestPath)),
    builtinMethods: builtinMethods(),
    serverCapabilities: CAPABILITY_DECLARATIONS.server,
    readView: viewFileReader(path.dirname(manifestPath)),
    readSkills: skillFolderReader(path.dirname(manifestPath)),
    ...(job.importExtension !== undefined ? { importExtension: job.importExtension } : {}),
  });
  return { model, outDir: outDirOf(manifest), manifestPath };
}
