/**
 * The mcp-gen CLI package as installed: compiled with tsconfig.cli.json (what its `build` writes to generator/dist/)
 * into a temporary copy of the package outside the repository (package.json, bin/, dist/, templates/), run with
 * plain `node` — no tsx — through its bin file. Its dependencies resolve from this repository's node_modules (a
 * link, as npm would install them next to it), including @mcp-gen/runtime, which the CLI reaches only by package
 * name. Checked: `--version` is the CLI's own, not the project's; `generate` finds the runtime's protocol revisions
 * through the package; `protocol --out <folder outside the repo>` imports the runtime by package specifier and the
 * output type-checks against the runtime package; hostile manifests (a u-invalid pattern, 200-deep nesting, a tool named
 * `__proto__` with scopes) are refused or kept safe as by the source CLI. Also the runtime
 * specifiers bindings import: the options' alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/repo-root.ts";
import { packageRuntime } from "../../generator/pipeline/protocol.ts";
import { runtimeSourcesFrom } from "../../scripts/generate-protocol.ts";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { copyBuiltPackage } from "./built-package.ts";

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const CLI_PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, "generator/package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};
let scratch: string;
let bin: string;

function cli(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-cli-package-"));
  const pkg = path.join(scratch, "node_modules", "mcp-gen");
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(REPO_ROOT, "generator/package.json"), path.join(pkg, "package.json"));
  cpSync(path.join(REPO_ROOT, "generator/bin"), path.join(pkg, "bin"), { recursive: true });
  copyBuiltPackage("cli", path.join(pkg, "dist"));
  cpSync(path.join(REPO_ROOT, "generator/templates"), path.join(pkg, "templates"), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(pkg, "node_modules"), "dir");
  bin = path.join(pkg, CLI_PACKAGE.bin["mcp-gen"]!);
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the compiled CLI", () => {
  it("ships no TypeScript source and runs without tsx", () => {
    const compiled = execFileSync("find", [path.join(scratch, "node_modules/mcp-gen/dist"), "-name", "*.ts"], {
      encoding: "utf8",
    });
    expect(compiled).toBe("");
    const entry = readFileSync(bin, "utf8");
    expect(entry).not.toMatch(/tsx/);
    expect(entry.startsWith("#!/usr/bin/env node")).toBe(true);
  });

  it("--version prints the CLI package's version, not the version of the project it runs in", () => {
    const project = path.join(scratch, "versioned");
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "user-project", version: "9.9.9" }));
    const result = cli(["--version"], project);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(CLI_PACKAGE.version);
  });

  it("checks server.revisions against the runtime package's revisions", () => {
    const project = path.join(scratch, "revisions");
    mkdirSync(project);
    const manifest = (revisions: string): string =>
      `server:\n  name: s\n  version: 1.0.0\n  revisions: ${revisions}\ntools:\n  - name: ping\ngenerate:\n  out: generated\n`;
    writeFileSync(path.join(project, "mcp.yaml"), manifest("[2099-01-01]"));
    const bad = cli(["generate", "--check"], project);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/unknown protocol revision "2099-01-01" \(known: 2024-11-05, .*2025-11-25/);
    writeFileSync(path.join(project, "mcp.yaml"), manifest("[2025-11-25]"));
    const good = cli(["generate"], project);
    expect(good.stderr).toBe("");
    expect(good.status).toBe(0);
  }, 60_000);

  it("refuses hostile manifests as the source CLI does (issue 20 items 7-9): u-invalid pattern, 200-deep nesting; a __proto__ tool keeps its scopes", () => {
    const project = path.join(scratch, "hostile");
    mkdirSync(project);
    const write = (tools: unknown[]) =>
      writeFileSync(
        path.join(project, "mcp.json"),
        JSON.stringify({ server: { name: "h", version: "1.0.0" }, tools, generate: { out: "generated" } }),
      );
    write([
      { name: "t", inputSchema: { type: "object", properties: { id: { type: "string", pattern: "^[\\w-.]+$" } } } },
    ]);
    const pattern = cli(["generate", "--manifest", "mcp.json"], project);
    expect(pattern.status).toBe(1);
    expect(pattern.stderr).toMatch(
      /mcp\.json:\d+:\d+: tools\[0\]\.inputSchema\.properties\.id\.pattern: invalid pattern/,
    );
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 200; i++) deep = { type: "object", properties: { a: deep } };
    write([{ name: "deep", inputSchema: deep }]);
    const nested = cli(["generate", "--manifest", "mcp.json"], project);
    expect(nested.status).toBe(1);
    expect(nested.stderr).not.toMatch(/Maximum call stack/);
    expect(nested.stderr).toMatch(/schemas nest deeper than 64 levels/);
    write([{ name: "__proto__", scopes: ["admin"] }]);
    const proto = cli(["generate", "--manifest", "mcp.json"], project);
    expect(proto.stderr).toBe("");
    expect(proto.status).toBe(0);
    // The scope table is read at run time: __proto__ must be an own entry, not the table's prototype.
    const definitions = readFileSync(path.join(project, "generated/definitions.ts"), "utf8");
    expect(definitions).not.toMatch(/^\s*"?__proto__"?\s*:/m);
    expect(definitions).toMatch(/^\s*\["__proto__"\]: \["admin"\],$/m);
  }, 120_000);

  it("protocol --out outside the repository imports the runtime by package specifier, and type-checks against it", () => {
    const project = path.join(scratch, "protocol-project");
    mkdirSync(path.join(project, "node_modules", "@mcp-gen"), { recursive: true });
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "p", type: "module" }));
    // Installed next to the project as npm would: the runtime package (its built exports) and zod.
    symlinkSync(path.join(REPO_ROOT, "runtime"), path.join(project, "node_modules/@mcp-gen/runtime"), "dir");
    symlinkSync(path.join(REPO_ROOT, "node_modules/zod"), path.join(project, "node_modules/zod"), "dir");
    const out = path.join(project, "protocol");
    const schema = path.join(requireSpecRoot(), "2025-11-25/schema.ts");
    const result = cli(["protocol", "--schema", schema, "--revision", "2025-11-25", "--out", out], project);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const methods = readFileSync(path.join(out, "methods.ts"), "utf8");
    expect(methods).toMatch(/^import \{[^}]*ProtocolRequestType[^}]*\} from "@mcp-gen\/runtime";$/m);
    expect(methods).not.toMatch(/from "\.\.?\/[^"]*runtime/);

    const tsconfig = {
      compilerOptions: {
        module: "nodenext",
        moduleResolution: "nodenext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        // Relative imports of the bindings keep whatever extension the emitter writes; this checks the runtime import.
        allowImportingTsExtensions: true,
        types: [],
      },
      include: ["protocol/*.ts"],
    };
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    // One compilation lists the files it read and compiles them (a failure throws).
    const files = execFileSync(process.execPath, [TSC, "--listFiles", "-p", project], { encoding: "utf8" });
    expect(files).toContain(path.join(REPO_ROOT, "runtime/dist/index.d.ts"));
    expect(files).toContain(path.join(REPO_ROOT, "runtime/dist/protocol/method-type.d.ts"));
    expect(files).not.toContain(path.join(REPO_ROOT, "runtime/protocol/method-type.ts"));
  }, 120_000);
});

describe("the runtime specifiers of protocol bindings", () => {
  it("by default the package's core entry, wherever the output goes (a pure function of the option)", () => {
    const runtime = packageRuntime();
    expect([runtime("core"), runtime("method-type"), runtime("zod-helpers")]).toEqual([
      "@mcp-gen/runtime",
      "@mcp-gen/runtime",
      "@mcp-gen/runtime",
    ]);
    expect(packageRuntime("my-runtime")("method-type")).toBe("my-runtime");
    expect(packageRuntime("my-runtime")("node")).toBe("my-runtime/node");
  });

  it("the repository's runtime/generated/protocol, part of the runtime package, imports its leaf sources relatively", () => {
    expect(runtimeSourcesFrom(path.join(REPO_ROOT, "runtime/generated/protocol/2025-11-25"))("method-type")).toBe(
      "../../../protocol/method-type.ts",
    );
  });

  it("the method tokens and zod helpers have no subpath export: the core entry is their one home", () => {
    const runtimePackage = JSON.parse(readFileSync(path.join(REPO_ROOT, "runtime/package.json"), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(runtimePackage.exports["./method-type"]).toBeUndefined();
    expect(runtimePackage.exports["./zod-helpers"]).toBeUndefined();
  });
});
