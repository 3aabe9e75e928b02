/**
 * Legal schema.ts constructs the generator must accept (issue 12), on a modified copy of a released schema made at
 * test time in a temp folder: a property typed `never`, a stray top-level `;`, interface declaration merging (on
 * ServerCapabilities, which capability gates are read from), a request no naming rule pairs (base `Result` and a
 * warning), a renamed wire version. The output compiles together with a fidelity file that checks every generated
 * type against the modified schema's own. A duplicate type alias stays an error with its file:line.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { emitFidelityFile } from "../../../generator/emit/fidelity.ts";
import { lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";
import { generateProtocol } from "../../../generator/pipeline/protocol.ts";
import { specFile } from "../../protocol/spec.ts";
import { RUNTIME_AS_INSTALLED } from "../../package/runtime-declarations.ts";
import { CLI } from "../cli-run.ts";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const inputDir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-legal-"));
// Output goes inside the repository so that its imports of zod and the runtime resolve.
const outRoot = path.join(repoRoot, ".tmp", path.basename(inputDir));
// The fidelity file imports the schema copy: an ES module, as in the spec repository.
writeFileSync(path.join(inputDir, "package.json"), JSON.stringify({ type: "module" }));
afterAll(() => {
  rmSync(inputDir, { recursive: true, force: true });
  rmSync(outRoot, { recursive: true, force: true });
});

const original = readFileSync(specFile("2025-11-25"), "utf8");

function writeSchema(name: string, text: string): string {
  const file = path.join(inputDir, name, "schema.ts");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** Replaces `from` (which must occur) in `text`. */
function edit(text: string, from: string | RegExp, to: string): string {
  const next = text.replace(from, to);
  expect(next, String(from)).not.toBe(text);
  return next;
}

function legalSchema(): string {
  let text = original;
  text = edit(
    text,
    /export const LATEST_PROTOCOL_VERSION = "[^"]+";/,
    'export const LATEST_PROTOCOL_VERSION = "draft-7";;',
  );
  text = edit(text, /export type ClientRequest =/, "export type ClientRequest =\n  | StreamWidgetsRequest");
  text += `
;
/** A second declaration of ServerCapabilities: merged with the first. */
export interface ServerCapabilities {
  widgets?: { listChanged?: boolean };
}

/** A widget; \`retired\` must never be present. */
export interface Widget {
  name: string;
  retired?: never;
}

/** Streams widgets: answered only by notifications, so no naming rule finds its result. */
export interface StreamWidgetsRequest extends JSONRPCRequest {
  method: "widgets/stream";
  params: { filter?: string; sample?: Widget };
}
`;
  return text;
}

describe("legal schema.ts constructs", () => {
  it("generate, pair the streaming request with Result and warn, and compile against the schema's own types", async () => {
    const text = legalSchema();
    const schemaPath = writeSchema("legal", text);
    const outDir = path.join(outRoot, "legal");

    const { warnings } = lowerSchemaWithWarnings({ text, displayPath: "legal/schema.ts", revision: "legal" });
    const requestLine = text.split("\n").findIndex((l) => l.startsWith("export interface StreamWidgetsRequest")) + 1;
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^legal/schema\\.ts:${requestLine}: request StreamWidgetsRequest is paired with the base Result type`,
        ),
      ),
    ]);

    const { model, files } = await generateProtocol({ schemaPath, revision: "legal" });
    const stream = model.methods.find((m) => m.method === "widgets/stream");
    expect(stream).toMatchObject({
      kind: "request",
      direction: "clientToServer",
      result: { kind: "ref", name: "Result" },
      resultSource: "base-result",
      capability: { side: "server", path: ["widgets"] },
    });
    expect(model.protocol).toMatchObject({ era: "handshake", version: "draft-7", batches: false });

    // Merged: one ServerCapabilities with the first declaration's properties and the second's.
    const capabilities = model.types.filter((t) => t.name === "ServerCapabilities");
    expect(capabilities).toHaveLength(1);
    const capabilityProps = capabilities[0]!.type.kind === "object" ? capabilities[0]!.type.props : [];
    expect(capabilityProps.map((p) => p.name)).toEqual(expect.arrayContaining(["tools", "logging", "widgets"]));

    for (const file of files) {
      mkdirSync(path.dirname(path.join(outDir, file.path)), { recursive: true });
      writeFileSync(path.join(outDir, file.path), file.content);
    }
    const spec = path.relative(outDir, schemaPath).split(path.sep).join("/");
    writeFileSync(path.join(outDir, "fidelity.ts"), emitFidelityFile(model, { generated: ".", spec }));

    const schemas = (await import(path.join(outDir, "schemas.ts"))) as Record<
      string,
      { safeParse(v: unknown): { success: boolean } }
    >;
    expect(schemas["WidgetSchema"]!.safeParse({ name: "w" }).success).toBe(true);
    expect(schemas["WidgetSchema"]!.safeParse({ name: "w", retired: true }).success).toBe(false);
    const { revision } = (await import(path.join(outDir, "revision.ts"))) as {
      revision: { name: string; version: string; era: string; methods: Record<string, unknown> };
    };
    expect([revision.name, revision.version, revision.era]).toEqual(["legal", "draft-7", "handshake"]);
    expect(Object.keys(revision.methods)).toContain("widgets/stream");

    const tsconfig = path.join(outRoot, "tsconfig.json");
    // The output against the runtime as installed (its .d.ts), as a user's project compiles it.
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: RUNTIME_AS_INSTALLED,
      include: ["legal/*.ts"],
      exclude: [],
    };
    writeFileSync(tsconfig, JSON.stringify(config));
    const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
    await expect(run(process.execPath, [tsc, "--noEmit", "-p", tsconfig], { cwd: repoRoot })).resolves.toBeDefined();
  }, 180_000); // a tsc run: over 60 s at load 20

  it("mcp-gen protocol prints the pairing warning on stderr and still writes the bindings", async () => {
    const schemaPath = writeSchema("cli", legalSchema());
    const out = path.join(inputDir, "cli-out");
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, "protocol", "--schema", schemaPath, "--revision", "legal", "--out", out],
      { cwd: repoRoot },
    );
    expect(stderr).toMatch(
      /^mcp-gen: warning: \S+schema\.ts:\d+: request StreamWidgetsRequest is paired with the base Result type/m,
    );
    expect(stdout).toMatch(/wrote \d+ files/);
    expect(readFileSync(path.join(out, "revision.ts"), "utf8")).toMatch(/version: "draft-7"/);
  }, 180_000); // the CLI on a whole schema: 56 s at load 20

  it("a duplicate type alias stays an error with its file:line", () => {
    const text = `${original}\nexport type ProgressToken = string;\n`;
    const line = text.split("\n").length - 1;
    expect(() => lowerSchemaWithWarnings({ text, displayPath: "dup/schema.ts", revision: "x" })).toThrow(
      new RegExp(`^dup/schema\\.ts:${line}: duplicate type alias ProgressToken$`),
    );
  });

  it("an interface and a type alias of the same name are an error too", () => {
    const text = `${original}\nexport interface ProgressToken { a: string }\n`;
    const line = text.split("\n").length - 1;
    expect(() => lowerSchemaWithWarnings({ text, displayPath: "dup/schema.ts", revision: "x" })).toThrow(
      new RegExp(`^dup/schema\\.ts:${line}: duplicate declaration ProgressToken$`),
    );
  });
});
