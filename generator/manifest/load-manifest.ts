/**
 * The validated manifest parser: manifest text → `UserModel`, or a `ManifestError` whose lines read
 * `file:line:col: tools[3].inputSchema.properties.city: reason`. Pure: the pipeline reads the file
 * (`pipeline/manifest.ts`).
 *
 * YAML and JSON both go through the `yaml` package (JSON is YAML 1.2), so both get positions. Stages:
 * syntax (yaml) → shape (`ManifestSchema`, zod) → meaning (`lowerManifest`: schemas, names, templates).
 */
import { createHash } from "node:crypto";
import { LineCounter, isMap, isNode, isScalar, parseDocument, type Document } from "yaml";
import type { z } from "zod";
import {
  formatDiagnostic,
  ManifestError,
  SchemaProblem,
  type ManifestDiagnostic,
  type ManifestPath,
  type ManifestPosition,
} from "./errors.ts";
import { lowerManifest, SchemaProblems, type LowerOptions, type ManifestList } from "./lower-manifest.ts";
import { ManifestParts, ManifestSchema, manifestJsonSchema, type Manifest } from "./manifest-schema.ts";
import { separateRevisionFields } from "./revision-extras.ts";
import { didYouMean } from "./suggest.ts";
import type { UserModel } from "./user-model.ts";

export interface LoadedManifest {
  readonly model: UserModel;
  readonly manifest: Manifest;
}

export interface ParseOptions extends Omit<LowerOptions, "source"> {
  /** Where messages say the manifest is. */
  readonly file: string;
  /**
   * The manifest's display path for the model (and so the generated headers), given the parsed manifest (it depends
   * on `generate.out`); it must not depend on the machine.
   */
  readonly displayPath: (manifest: Manifest) => string;
}

/**
 * Parses and lowers manifest text. Every problem is reported in one `ManifestError`:
 * structural ones (zod) and those found while lowering the entries that are structurally sound, sorted by position,
 * each once.
 */
export function parseManifest(text: string, options: ParseOptions): LoadedManifest {
  const { file, displayPath, ...lowering } = options;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) throw new ManifestError(file, syntaxDiagnostics(doc, lineCounter));
  // Fields the manifest does not define, in objects a revision may extend, are checked by lowering against the IR.
  const { raw, extras } = separateRevisionFields(doc.toJS());
  const parsed = ManifestSchema.safeParse(raw);
  const diagnostics: ManifestDiagnostic[] = parsed.success
    ? []
    : parsed.error.issues.flatMap((issue) => issueDiagnostics(doc, lineCounter, issue));
  const sha256 = createHash("sha256").update(text).digest("hex");
  const sound = parsed.success ? { manifest: parsed.data, origin: {} } : soundParts(raw);
  let model: UserModel | undefined;
  if (sound) {
    try {
      const source = { path: displayPath(sound.manifest), sha256 };
      model = lowerManifest(sound.manifest, { ...lowering, source }, sound.origin, extras);
    } catch (error) {
      const problems =
        error instanceof SchemaProblems ? error.problems : error instanceof SchemaProblem ? [error] : undefined;
      if (!problems) throw error;
      diagnostics.push(...problems.map((p) => problemDiagnostic(doc, lineCounter, p)));
    }
  }
  if (!parsed.success || !model || diagnostics.length > 0) throw new ManifestError(file, sortedOnce(file, diagnostics));
  return { manifest: parsed.data, model };
}

/** The first syntax error of each line (the parser often reports one mistake several times, at one place). */
function syntaxDiagnostics(doc: Document, lineCounter: LineCounter): ManifestDiagnostic[] {
  const lines = new Set<number>();
  return doc.errors.flatMap((e) => {
    const position = lineCounter.linePos(e.pos[0]);
    if (lines.has(position.line)) return [];
    lines.add(position.line);
    return [{ path: [], message: `syntax error: ${e.message.split("\n")[0]}`, position }];
  });
}

/** Diagnostics by position (unpositioned first), each distinct line once. */
function sortedOnce(file: string, diagnostics: readonly ManifestDiagnostic[]): ManifestDiagnostic[] {
  const seen = new Set<string>();
  const key = (d: ManifestDiagnostic) => (d.position ? d.position.line * 1e6 + d.position.col : -1);
  return [...diagnostics]
    .sort((a, b) => key(a) - key(b))
    .filter((d) => {
      const line = formatDiagnostic(file, d);
      if (seen.has(line)) return false;
      seen.add(line);
      return true;
    });
}

type Sound = { manifest: Manifest; origin: Partial<Record<ManifestList, number[]>> };

const LISTS = {
  tools: ManifestParts.Tool,
  resources: ManifestParts.Resource,
  resourceTemplates: ManifestParts.ResourceTemplate,
  prompts: ManifestParts.Prompt,
  ui: ManifestParts.View,
} as const;

/**
 * The structurally sound parts of a manifest that failed as a whole: the entries of each list that pass on their
 * own (with their file indices), a placeholder server when `server` itself is broken. Undefined when not an object.
 */
function soundParts(raw: unknown): Sound | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const value = raw as Record<string, unknown>;
  // Unknown fields are reported already: the parts are read without them (`strip`), so the rest is still checked.
  const server = ManifestParts.Server.strip().safeParse(value["server"]);
  const partial: Record<string, unknown> = { server: server.success ? server.data : { name: "-", version: "-" } };
  for (const [key, schema] of [
    ["capabilities", ManifestParts.Capabilities],
    ["generate", ManifestParts.Generate],
    ["skills", ManifestParts.Skills],
  ] as const) {
    const part = schema.strip().safeParse(value[key]);
    if (value[key] !== undefined && part.success) partial[key] = part.data;
  }
  const origin: Partial<Record<ManifestList, number[]>> = {};
  for (const list of Object.keys(LISTS) as ManifestList[]) {
    const items = value[list];
    if (!Array.isArray(items)) continue;
    const kept: unknown[] = [];
    const indices: number[] = [];
    items.forEach((item, i) => {
      const entry = LISTS[list].strip().safeParse(item);
      if (!entry.success) return;
      kept.push(entry.data);
      indices.push(i);
    });
    partial[list] = kept;
    origin[list] = indices;
  }
  const again = ManifestSchema.safeParse(partial);
  return again.success ? { manifest: again.data, origin } : undefined;
}

/** The manifest's position of `path`, or of its nearest existing ancestor (a missing key points at its parent). */
function positionOf(doc: Document, lineCounter: LineCounter, path: ManifestPath): ManifestPosition | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = lineCounter.linePos(node.range[0]);
      return { line: pos.line, col: pos.col };
    }
  }
  return undefined;
}

function diagnostic(doc: Document, lineCounter: LineCounter, path: ManifestPath, message: string): ManifestDiagnostic {
  const position = positionOf(doc, lineCounter, path);
  return { path, message, ...(position ? { position } : {}) };
}

/** A lowering problem's diagnostic; an unknown field points at its key, as the schema's own unknown fields do. */
function problemDiagnostic(doc: Document, lineCounter: LineCounter, problem: SchemaProblem): ManifestDiagnostic {
  const key = problem.path.at(-1);
  const at = problem.atKey && typeof key === "string" && keyPosition(doc, lineCounter, problem.path.slice(0, -1), key);
  return at
    ? { path: problem.path, message: problem.message, position: at }
    : diagnostic(doc, lineCounter, problem.path, problem.message);
}

type Issue = z.core.$ZodIssue;

function issueDiagnostics(doc: Document, lineCounter: LineCounter, issue: Issue): ManifestDiagnostic[] {
  const base = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  if (issue.code === "unrecognized_keys") {
    // One line per unknown key, pointing at the key itself, with the closest known field.
    const known = knownFields(base);
    return issue.keys.map((key) => {
      const message = `unknown field ${JSON.stringify(key)}${didYouMean(key, known)}`;
      const at = keyPosition(doc, lineCounter, base, key);
      return at
        ? { path: [...base, key], message, position: at }
        : diagnostic(doc, lineCounter, [...base, key], message);
    });
  }
  const missing = issue.code === "invalid_type" && !doc.hasIn(base);
  return [
    diagnostic(doc, lineCounter, base, missing ? `required field missing (expected ${issue.expected})` : issue.message),
  ];
}

/** The position of the key `key` (not its value) in the mapping at `path`. */
function keyPosition(
  doc: Document,
  lineCounter: LineCounter,
  path: ManifestPath,
  key: string,
): ManifestPosition | undefined {
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key);
  const range = isNode(pair?.key) ? pair.key.range : undefined;
  if (!range) return undefined;
  const pos = lineCounter.linePos(range[0]);
  return { line: pos.line, col: pos.col };
}

let jsonSchema: Record<string, unknown> | undefined;

/** The fields the manifest's JSON Schema allows for the object at `path` (none where it allows any). */
function knownFields(path: ManifestPath): string[] {
  let node: unknown = (jsonSchema ??= manifestJsonSchema());
  for (const segment of path) {
    if (typeof node !== "object" || node === null) return [];
    const schema = node as Record<string, unknown>;
    const properties = schema["properties"] as Record<string, unknown> | undefined;
    node =
      typeof segment === "number"
        ? schema["items"]
        : (properties?.[segment] ??
          (typeof schema["additionalProperties"] === "object" ? schema["additionalProperties"] : undefined));
  }
  const properties = (node as Record<string, unknown> | undefined)?.["properties"];
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}
