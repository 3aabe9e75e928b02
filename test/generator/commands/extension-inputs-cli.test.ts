/**
 * `mcp-gen protocol` on the extension inputs published in the other two shapes, as a user runs it: the Skills schema
 * assembled from its spec page's TypeScript blocks (whose irregular `resources/directory/read` params are reported
 * with their location, the line tsc's TS2430 names, and completed as the base declares them), and the MCP Apps types
 * of the npm package, which import the base protocol by package name (`--base <revision>` says which revision that
 * is). The bindings the runtime ships (runtime/generated/extensions/apps, skills) are type-checked with the project.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/repo-root.ts";
import { requireSpecRoot } from "../../../scripts/spec-inputs.ts";
import { CLI } from "../cli-run.ts";

const run = promisify(execFile);
const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-ext-inputs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const appsTypes = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/ext-apps/schema.json")),
  "../spec.types.d.ts",
);

function protocol(...args: string[]) {
  return run(process.execPath, [CLI, "protocol", ...args], { cwd: REPO_ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("mcp-gen protocol on extension inputs of every published shape", () => {
  it("reports the Skills page's params that lack the base's _meta at the line tsc names, and keeps _meta", async () => {
    const schema = path.relative(REPO_ROOT, path.join(requireSpecRoot(), "extensions/skills/schema.ts"));
    const out = path.join(tmp, "skills");
    const result = await protocol(
      ...["--schema", schema, "--revision", "skills", "--extension-id", "io.modelcontextprotocol/skills"],
      ...["--out", out],
    );
    expect(result.code).toBe(0);
    // tsc on the file alone: schema.ts(86,18): error TS2430: Interface 'ReadResourceDirectoryRequest' incorrectly
    // extends interface 'PaginatedRequest' ... Property '_meta' is missing.
    expect(result.stderr.split("\n")).toContain(
      `mcp-gen: warning: ${schema}:86: ReadResourceDirectoryRequest does not fit PaginatedRequest (TS2430): its params lack _meta, which PaginatedRequest's params (PaginatedRequestParams) require; the bindings follow PaginatedRequest: params carry _meta as declared there`,
    );
    expect(result.stderr.split("\n")).toContain(
      `mcp-gen: warning: ${schema}:74: GetSkillRequest extends Request, which carries no jsonrpc or id (a message without its JSON-RPC envelope): taken as the request "skills/get", framed as the base revision frames every request; its params are as declared`,
    );
    const methods = readFileSync(path.join(out, "methods.ts"), "utf8");
    for (const method of ["skills/list", "skills/get", "resources/directory/read"])
      expect(methods).toContain(`"${method}": new`);
    expect(methods).toContain("_meta: built(Base.RequestMetaObjectSchema)");
    expect(readFileSync(path.join(out, "types.ts"), "utf8")).toContain(
      'import type * as Base from "@mcp-gen/runtime/protocol/2026-07-28"',
    );
  });

  it("maps the Apps package's imports of @modelcontextprotocol/client onto the --base revision", async () => {
    const refused = await protocol(
      ...["--schema", appsTypes, "--revision", "apps", "--out", path.join(tmp, "refused")],
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /spec\.types\.d\.ts:12: unsupported import of "@modelcontextprotocol\/client": a package name, which stands for no file here; name the revision it stands for \(mcp-gen protocol --base <revision>\)/,
    );

    const out = path.join(tmp, "apps");
    const result = await protocol(
      ...["--schema", appsTypes, "--revision", "apps", "--extension-id", "io.modelcontextprotocol/ui"],
      ...["--base", "2025-11-25", "--out", out],
    );
    expect(result.code).toBe(0);
    const ir = JSON.parse(readFileSync(path.join(out, "ir.json"), "utf8")) as { extension: unknown };
    expect(ir.extension).toMatchObject({
      base: { revision: "2025-11-25", builtin: true },
      imports: [{ module: "@modelcontextprotocol/client", version: "2025-11-25" }],
    });
    const types = readFileSync(path.join(out, "types.ts"), "utf8");
    expect(types).toContain('import type * as Base from "@mcp-gen/runtime/protocol/2025-11-25"');
    expect(types).toMatch(/export interface McpUiToolMeta \{[^}]*visibility\?: McpUiToolVisibility\[\];/);
    // The package's declared constants typed by a literal (OPEN_LINK_METHOD: McpUiOpenLinkRequest["method"]).
    expect(readFileSync(path.join(out, "constants.ts"), "utf8")).toMatch(/OPEN_LINK_METHOD = "ui\/open-link"/);
    // The bindings the runtime ships are these, generated from the same package by npm run generate.
    expect(readFileSync(path.join(REPO_ROOT, "runtime/generated/extensions/apps/types.ts"), "utf8")).toContain(
      'import type * as Base from "../../protocol/2025-11-25/index.ts"',
    );
  });
});
