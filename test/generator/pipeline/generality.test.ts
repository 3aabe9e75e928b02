/**
 * A future schema.ts must go through without generator changes: a modified copy of a released schema (a new request
 * in ClientRequest with its result and capability, a renamed type) shows up in the output, which compiles and
 * validates; a schema the generator cannot express fails with its location.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/repo-root.ts";
import { generateProtocol } from "../../../generator/pipeline/protocol.ts";
import { writeFiles } from "../../../generator/pipeline/write.ts";
import { specFile } from "../../protocol/spec.ts";
import { RUNTIME_AS_INSTALLED } from "../../package/runtime-declarations.ts";

const run = promisify(execFile);
const inputDir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-generality-"));
// Output goes inside the repository so that its imports of zod and the runtime resolve.
const outRoot = path.join(REPO_ROOT, ".tmp", path.basename(inputDir));
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

function modified(): string {
  let text = original.replace(/\bTool\b/g, "Gadget");
  text = text.replace(
    "export interface ServerCapabilities {",
    "export interface ServerCapabilities {\n  widgets?: { listChanged?: boolean };",
  );
  text = text.replace(/export type ClientRequest =/, "export type ClientRequest =\n  | SpinWidgetRequest");
  text += `
/** Spins a widget. */
export interface SpinWidgetRequestParams extends RequestParams {
  speed: number;
}
export interface SpinWidgetRequest extends JSONRPCRequest {
  method: "widgets/spin";
  params: SpinWidgetRequestParams;
}
export interface SpinWidgetResult extends Result {
  rpm: number;
}
`;
  expect(text).not.toBe(original);
  return text;
}

describe("generality", () => {
  it("a new request and a renamed type come out without generator changes, and the output compiles", async () => {
    const schemaPath = writeSchema("future", modified());
    const outDir = path.join(outRoot, "future");
    const { model, files } = await generateProtocol({ schemaPath, revision: "future" });
    await writeFiles(outDir, files);

    const spin = model.methods.find((m) => m.method === "widgets/spin");
    expect(spin).toMatchObject({
      kind: "request",
      typeName: "SpinWidgetRequest",
      direction: "clientToServer",
      params: { kind: "ref", name: "SpinWidgetRequestParams" },
      result: { kind: "ref", name: "SpinWidgetResult" },
      resultSource: "naming",
      capability: { side: "server", path: ["widgets"] },
    });
    const names = model.types.map((t) => t.name);
    expect(names).toContain("Gadget");
    expect(names).not.toContain("Tool");
    const types = files.find((f) => f.path === "types.ts")!.content;
    expect(types).toMatch(/export interface Gadget \{/);
    expect(types).toMatch(/tools: Gadget\[\];/);

    const { methods } = (await import(path.join(outDir, "methods.ts"))) as {
      methods: Record<
        string,
        {
          params: { safeParse(v: unknown): { success: boolean } };
          result: { safeParse(v: unknown): { success: boolean } };
        }
      >;
    };
    expect(methods["widgets/spin"]!.params.safeParse({ speed: 3 }).success).toBe(true);
    expect(methods["widgets/spin"]!.result.safeParse({ rpm: 3 }).success).toBe(true);
    expect(methods["widgets/spin"]!.result.safeParse({ rpm: "fast" }).success).toBe(false);

    const tsconfig = path.join(outRoot, "tsconfig.json");
    // The output against the runtime as installed (its .d.ts), as a user's project compiles it.
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: RUNTIME_AS_INSTALLED,
      include: ["future/*.ts"],
      exclude: [],
    };
    writeFileSync(tsconfig, JSON.stringify(config));
    const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    await expect(run(process.execPath, [tsc, "--noEmit", "-p", tsconfig], { cwd: REPO_ROOT })).resolves.toBeDefined();
  }, 180_000); // a tsc run: over 60 s at load 20

  it("an unsupported construct fails with the schema's file:line", async () => {
    const text = `${original}\nexport type ToolKeys = keyof Tool;\n`;
    const line = text.split("\n").length - 1;
    const schemaPath = writeSchema("unsupported", text);
    await expect(generateProtocol({ schemaPath, revision: "x" })).rejects.toThrow(
      new RegExp(`unsupported/schema\\.ts:${line}: unsupported type construct: \`keyof Tool\``),
    );
  });

  it("a request no naming rule pairs gets the base Result type instead of stopping generation", async () => {
    let text = original.replace(/export type ClientRequest =/, "export type ClientRequest =\n  | FrobRequest");
    text += `\nexport interface FrobRequest extends JSONRPCRequest {\n  method: "frob";\n}\n`;
    const schemaPath = writeSchema("unpaired", text);
    const { model } = await generateProtocol({ schemaPath, revision: "x" });
    expect(model.methods.find((m) => m.method === "frob")).toMatchObject({
      result: { kind: "ref", name: "Result" },
      resultSource: "base-result",
    });
  });
});
