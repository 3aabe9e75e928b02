/**
 * The validated manifest loader: file bytes → `UserModel`, or a `ManifestError` whose lines read
 * `file:line:col: tools[3].inputSchema.properties.city: reason`.
 *
 * YAML and JSON both go through the `yaml` package (JSON is YAML 1.2), so both get positions. Stages:
 * syntax (yaml) → shape (`ManifestSchema`, zod) → meaning (`lowerManifest`: schemas, names, templates).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { LineCounter, isNode, parseDocument, type Document } from "yaml";
import type { z } from "zod";
import {
  ManifestError,
  SchemaProblem,
  type ManifestDiagnostic,
  type ManifestPath,
  type ManifestPosition,
} from "./errors.ts";
import { lowerManifest } from "./lower-manifest.ts";
import { ManifestSchema, type Manifest } from "./manifest-schema.ts";
import type { UserModel } from "./user-model.ts";

export interface LoadedManifest {
  readonly model: UserModel;
  readonly manifest: Manifest;
}

/**
 * Parses and lowers manifest text. `file` is used in messages only; `displayPath` goes into the model (and so
 * into generated headers), and must not depend on the machine.
 */
export function parseManifest(text: string, file: string, displayPath: string): LoadedManifest {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ManifestError(
      file,
      doc.errors.map((e) => ({
        path: [],
        message: `syntax error: ${e.message.split("\n")[0]}`,
        position: lineCounter.linePos(e.pos[0]),
      })),
    );
  }
  const parsed = ManifestSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new ManifestError(
      file,
      parsed.error.issues.map((issue) => {
        const path = issuePath(issue);
        const missing = issue.code === "invalid_type" && !doc.hasIn(path);
        return diagnostic(
          doc,
          lineCounter,
          path,
          missing ? `required field missing (expected ${issue.expected})` : issueMessage(issue),
        );
      }),
    );
  }
  const sha256 = createHash("sha256").update(text).digest("hex");
  try {
    return { manifest: parsed.data, model: lowerManifest(parsed.data, { path: displayPath, sha256 }) };
  } catch (error) {
    if (error instanceof SchemaProblem)
      throw new ManifestError(file, [diagnostic(doc, lineCounter, error.path, error.message)]);
    throw error;
  }
}

export async function loadManifest(file: string, displayPath: string): Promise<LoadedManifest> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ManifestError(file, [
      { path: [], message: code === "ENOENT" ? "manifest not found" : `cannot read manifest (${code ?? "error"})` },
    ]);
  }
  return parseManifest(text, file, displayPath);
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

type Issue = z.core.$ZodIssue;

function issuePath(issue: Issue): ManifestPath {
  const base = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  // An unknown key is reported on its parent by zod; point at the key itself.
  if (issue.code === "unrecognized_keys" && issue.keys.length > 0) return [...base, issue.keys[0]!];
  return base;
}

function issueMessage(issue: Issue): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
  return issue.message;
}
