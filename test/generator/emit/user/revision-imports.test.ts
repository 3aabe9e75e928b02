/**
 * How generated definitions name their revisions: descriptor values imported from one module each, spelled from
 * `runtimeImport` (the runtime package's `protocol/<name>` entry; a path as `runtimeImport` has none, so is refused)
 * and, for a user's bindings folder, the module the read stage found, with the manifest's import extension.
 */
import { describe, expect, it } from "vitest";
import { emitUserFiles } from "../../../../generator/emit/user/emit-user.ts";
import { parseManifest } from "../../../../generator/manifest/load-manifest.ts";
import { ManifestError } from "../../../../generator/manifest/errors.ts";

function definitions(generate: string, revisions: string): string {
  const text = `server: { name: s, version: 1.0.0, revisions: ${revisions} }\ngenerate: ${generate}\n`;
  const { model } = parseManifest(text, {
    file: "mcp.yaml",
    displayPath: () => "../mcp.yaml",
    knownRevisions: ["2025-06-18", "2025-11-25"],
    bindings: (folder) => ({ module: `../${folder.replace(/^\.\//, "")}/revision` }),
  });
  return emitUserFiles(model).find((f) => f.path === "definitions.ts")!.content;
}

describe("revision imports of definitions.ts", () => {
  it("a package runtimeImport: each built-in from its protocol/<name> entry, a folder by relative path", () => {
    const text = definitions(
      '{ importExtension: ".js" }',
      "[2025-11-25, { bindings: ./protocol/my-draft }, 2025-06-18]",
    );
    expect(text).toContain('import * as revision_2025_11_25 from "@mcp-gen/runtime/protocol/2025-11-25";');
    expect(text).toContain('import * as revision_2025_06_18 from "@mcp-gen/runtime/protocol/2025-06-18";');
    expect(text).toContain('import * as revision_my_draft from "../protocol/my-draft/revision.js";');
    // The manifest's order is kept: the runtime ranks revisions itself.
    expect(text).toContain(
      "revisions: [revision_2025_11_25.revision, revision_my_draft.revision, revision_2025_06_18.revision]",
    );
  });

  it("a path as runtimeImport: folders by relative path (no extension when asked); a built-in revision is refused", () => {
    const text = definitions(
      '{ runtimeImport: "../../runtime/index.ts", importExtension: "" }',
      "[{ bindings: a/x }, { bindings: b/x }]",
    );
    expect(text).toContain('import * as revision_x from "../a/x/revision";');
    expect(text).toContain('import * as revision_x_2 from "../b/x/revision";');
    expect(text).toContain("revisions: [revision_x.revision, revision_x_2.revision]");
    // A built-in revision is the runtime package's protocol/<name> entry: a path has none, and no layout is guessed.
    expect(() => definitions('{ runtimeImport: "../../runtime/index.ts" }', "[2025-06-18]")).toThrow(
      /built-in revision "2025-06-18" is imported from the runtime package's <runtimeImport>\/protocol\/2025-06-18 entry, but generate.runtimeImport "..\/..\/runtime\/index.ts" is a path/,
    );
    expect(() => definitions('{ runtimeImport: "/opt/runtime/index.js" }', "[2025-06-18]")).toThrow(ManifestError);
    expect(definitions('{ runtimeImport: "my-runtime" }', "[2025-06-18]")).toContain(
      'import * as revision_2025_06_18 from "my-runtime/protocol/2025-06-18";',
    );
  });

  it("without revisions, no revision's bindings are imported: the server takes the runtime's builtinRevisions", () => {
    const text = emitUserFiles(
      parseManifest("server: { name: s, version: 1.0.0 }\n", {
        file: "mcp.yaml",
        displayPath: () => "../mcp.yaml",
        knownRevisions: ["2025-11-25"],
      }).model,
    ).find((f) => f.path === "definitions.ts")!.content;
    expect(text).not.toMatch(/protocol\/|revision_/);
    expect(text).toMatch(/import \{[^}]*\bbuiltinRevisions\b[^}]*\} from "@mcp-gen\/runtime";/);
    expect(text).toMatch(/revisions: builtinRevisions\b/);
  });

  it("lowering without the read stage's lookup refuses a folder instead of guessing", () => {
    expect(() =>
      parseManifest("server: { name: s, version: 1.0.0, revisions: [{ bindings: ./d }] }\n", {
        file: "mcp.yaml",
        displayPath: () => "../mcp.yaml",
        knownRevisions: ["2025-11-25"],
      }),
    ).toThrow(ManifestError);
  });
});
