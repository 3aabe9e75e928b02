/**
 * Issue 21 item 4, manifest side: what a manifest may declare beyond its own fields comes from the IR of the
 * revisions the server speaks. The draft (test/revisions/draft-surface.ts) adds a `notes` server capability, a `color`
 * field of `Tool` and a `notes/add` request; lowered here in-process, it stands for a `{ bindings }` folder. Built-in
 * revisions are read by the pipeline's own read stage. Error lines are checked against positions read off the
 * manifest text.
 */
import { describe, expect, it } from "vitest";
import { diffSurfaces } from "../../generator/diff/surface-compare.ts";
import { formatManifestDiffText } from "../../generator/diff/surface-text.ts";
import { manifestSurface } from "../../generator/diff/surface.ts";
import type { IrModel } from "../../generator/ir/model.ts";
import { CAPABILITY_DECLARATIONS } from "../../generator/lower/quirks.ts";
import { lowerSchema } from "../../generator/lower/schema.ts";
import { ManifestError } from "../../generator/manifest/errors.ts";
import { parseManifest, type LoadedManifest } from "../../generator/manifest/load-manifest.ts";
import type { UserModel } from "../../generator/manifest/user-model.ts";
import { knownRevisions } from "../../generator/pipeline/known-revisions.ts";
import { builtinMethods, revisionModel } from "../../generator/pipeline/manifest-surface.ts";
import { notesDraftSchema } from "./draft-surface.ts";

const draft: IrModel = lowerSchema({
  text: notesDraftSchema(),
  displayPath: "notes.schema.ts",
  revision: "notes-draft",
});

function load(text: string): LoadedManifest {
  return parseManifest(text, {
    file: "mcp.yaml",
    displayPath: () => "mcp.yaml",
    knownRevisions: knownRevisions(),
    bindings: () => ({ module: "../draft/revision" }),
    revisionModel: (r) => (r.kind === "bindings" ? draft : revisionModel(r, ".")),
    builtinMethods: builtinMethods(),
    serverCapabilities: CAPABILITY_DECLARATIONS.server,
  });
}

function errors(text: string): string[] {
  try {
    load(text);
  } catch (error) {
    if (error instanceof ManifestError) return error.lines();
    throw error;
  }
  throw new Error("expected a ManifestError");
}

/** `mcp.yaml:line:col` of the first match of `pattern` on 1-based line `n` of `text`. */
const at = (text: string, n: number, pattern: RegExp) =>
  `mcp.yaml:${n}:${(text.split("\n")[n - 1]?.search(pattern) ?? -2) + 1}`;

const manifest = (revisions: string, capabilities: string, tool: string) => `server:
  name: s
  version: 1.0.0
  revisions: ${revisions}
capabilities:
${capabilities}
tools:
  - name: greet
${tool}
`;
const WITH_DRAFT = "[2025-11-25, { bindings: ./draft }]";

describe("capabilities and definition fields a served revision declares", () => {
  it("are accepted, served as written, and the draft's request gets a typed handler entry", () => {
    const { model } = load(
      manifest(WITH_DRAFT, "  tools: { listChanged: false }\n  notes: { maxLength: 100 }", "    color: green"),
    );
    expect(model.capabilities).toEqual({
      tools: { listChanged: false },
      logging: false,
      completions: false,
      notes: { maxLength: 100 },
    });
    expect(model.tools[0]?.fields).toEqual({ color: "green" });
    expect(model.definitionFields).toBe(true);
    expect(model.methods).toEqual([{ method: "notes/add", revision: 1, doc: "Adds a note." }]);
  });

  it("a request gated by a capability the manifest does not declare gets no handler entry", () => {
    const { model } = load(manifest(WITH_DRAFT, "  tools: { listChanged: false }", "    color: green"));
    expect(model.methods).toEqual([]);
    expect(model.capabilities["notes"]).toBeUndefined();
  });

  it("a built-in revision's own fields are accepted where it declares them, refused where no served one does", () => {
    // 2025-11-25 declares `Tool.execution` and the `tasks` capability; 2024-11-05 declares neither.
    const body = (revisions: string) =>
      manifest(revisions, "  tasks: { list: {} }", "    execution: { taskSupport: optional }");
    expect(load(body("[2025-11-25]")).model.tools[0]?.fields).toEqual({ execution: { taskSupport: "optional" } });
    const old = body("[2024-11-05]");
    expect(errors(old)).toEqual([
      `${at(old, 6, /tasks/)}: capabilities.tasks: unknown field "tasks"`,
      `${at(old, 9, /execution/)}: tools[0].execution: unknown field "execution"`,
    ]);
  });

  it("refuses unknown fields with the closest name, and values the revision's type does not allow", () => {
    const text = manifest(
      WITH_DRAFT,
      '  note: {}\n  notes: { maxLength: "long" }\n  tools: { listChanged: false, listchanged: true }',
      "    colour: green\n    color: purple\n    _meta: 3",
    );
    expect(errors(text)).toEqual([
      `${at(text, 6, /note/)}: capabilities.note: unknown field "note" (did you mean "notes"?)`,
      `${at(text, 7, /"long"/)}: capabilities.notes.maxLength: expected number, got string (as revision notes-draft declares it)`,
      `${at(text, 8, /listchanged/)}: capabilities.tools.listchanged: unknown field "listchanged" (did you mean "listChanged"?)`,
      `${at(text, 11, /colour/)}: tools[0].colour: unknown field "colour" (did you mean "color"?)`,
      `${at(text, 12, /purple/)}: tools[0].color: matches none of 3 allowed shapes (as revision notes-draft declares it)`,
      `${at(text, 13, /3/)}: tools[0]._meta: expected an object, got number (as revision 2025-11-25 declares it)`,
    ]);
  });

  it("without the draft, its capability and field are unknown", () => {
    const text = manifest("[2025-11-25]", "  notes: {}", "    color: green");
    expect(errors(text)).toEqual([
      `${at(text, 6, /notes/)}: capabilities.notes: unknown field "notes"`,
      `${at(text, 9, /color/)}: tools[0].color: unknown field "color"`,
    ]);
  });
});

describe("mcp-gen diff", () => {
  const surface = (model: UserModel, revision: IrModel) =>
    manifestSurface(model, [{ model: revision, bindings: "./draft" }]);
  const origin = { kind: "manifest" as const, path: "mcp.yaml", sha256: "0" };
  const released = revisionModel({ kind: "builtin", name: "2025-11-25" }, ".")!;

  it("no longer says a method is gated by a capability the server does not declare once the manifest declares it", () => {
    const before = load(manifest("[{ bindings: ./draft }]", "  tools: {}", "    color: green")).model;
    const declared = load(manifest("[{ bindings: ./draft }]", "  notes: {}", "    color: green")).model;
    const text = (model: UserModel) =>
      formatManifestDiffText(
        diffSurfaces(surface(before, released), surface(model, draft), { from: origin, to: origin }),
      );
    const line = (model: UserModel) =>
      text(model)
        .split("\n")
        .find((l) => l.includes("notes/add"));
    expect(line(before)).toMatch(
      /\+ notes\/add .*gate server:notes.*\(gated by a capability this server does not declare\)$/,
    );
    expect(line(declared)).toMatch(/\+ notes\/add .*gate server:notes/);
    expect(line(declared)).not.toMatch(/gated by/);
  });
});
