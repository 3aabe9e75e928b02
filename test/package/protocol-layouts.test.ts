/**
 * `mcp-gen protocol` as installed (issue 21 item 3): the CLI compiled as its package build does (tsconfig.cli.json),
 * installed in two layouts — `<a>/node_modules/mcp-gen` and a pnpm-like `<b>/x/y/node_modules/.pnpm/mcp-gen@v/
 * node_modules/mcp-gen` — and run with plain `node` from the same project folder. Both write byte-identical output,
 * whose headers, `ir.json` and `.mcp-gen.json` name the schema relative to the working directory (or, for `--spec`, to
 * the spec's schema folder); an error in `<project>/bad/broken.ts` is reported as `bad/broken.ts:<line>`. The
 * README's draft example (`mcp-gen protocol --spec draft --out src/protocol/draft`, then `{ bindings:
 * ./src/protocol/draft }` in mcp.yaml) compiles in the project `init` makes, with init's own tsconfig.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/repo-root.ts";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { runNode, type CliRun } from "../generator/cli-run.ts";
import { SPEC_URL_PREFIX, startSpecServer, type SpecServer } from "../protocol/spec-server.ts";
import { copyBuiltPackage } from "./built-package.ts";

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const CLI_PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, "generator/package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
};
let scratch: string;
let server: SpecServer;
const bins: string[] = [];

/** Runs a CLI asynchronously (the loopback spec server lives in this process). */
const run = (bin: string, args: readonly string[], cwd: string): Promise<CliRun> =>
  runNode(bin, args, { cwd, env: { ...process.env, MCP_SPEC_BASE_URL: server.url } });

/** Every file under `dir`, relative path → content. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      files.set(
        path.relative(dir, path.join(e.parentPath, e.name)),
        readFileSync(path.join(e.parentPath, e.name), "utf8"),
      );
  return files;
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-protocol-layouts-"));
  server = await startSpecServer(requireSpecRoot());
  const layouts = [
    path.join(scratch, "a/node_modules/mcp-gen"),
    path.join(scratch, `b/x/y/node_modules/.pnpm/mcp-gen@${CLI_PACKAGE.version}/node_modules/mcp-gen`),
  ];
  for (const pkg of layouts) {
    mkdirSync(pkg, { recursive: true });
    cpSync(path.join(REPO_ROOT, "generator/package.json"), path.join(pkg, "package.json"));
    cpSync(path.join(REPO_ROOT, "generator/bin"), path.join(pkg, "bin"), { recursive: true });
    copyBuiltPackage("cli", path.join(pkg, "dist"));
    // The package's templates ship beside package.json ("files"); the built-in IRs come from @mcp-gen/runtime.
    cpSync(path.join(REPO_ROOT, "generator/templates"), path.join(pkg, "templates"), { recursive: true });
    // Its dependencies, as the package manager would put them beside it.
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(pkg, "node_modules"), "dir");
    bins.push(path.join(pkg, CLI_PACKAGE.bin["mcp-gen"]!));
  }
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("protocol output, whatever the install layout", () => {
  it("is byte-identical from both layouts, names paths relative to the working directory, and reports errors so", async () => {
    const project = path.join(scratch, "project");
    mkdirSync(path.join(project, "schemas"), { recursive: true });
    cpSync(path.join(requireSpecRoot(), "2025-06-18/schema.ts"), path.join(project, "schemas/schema.ts"));
    const outputs: Map<string, string>[] = [];
    for (const [i, bin] of bins.entries()) {
      const local = await run(
        bin,
        ["protocol", "--schema", "schemas/schema.ts", "--revision", "r", "--out", `out${i}/local`],
        project,
      );
      expect(local.stderr).toBe("");
      expect(local.code).toBe(0);
      const spec = await run(bin, ["protocol", "--spec", "2025-11-25", "--out", `out${i}/spec`], project);
      expect(spec.stderr).toBe("");
      expect(spec.stdout).toMatch(
        /2025-11-25\/schema\.ts at b0f60ba5409d verified \(sha256 e74b56e73b2e[0-9a-f]+, pinned\)/,
      );
      expect(spec.code).toBe(0);
      outputs.push(tree(path.join(project, `out${i}`)));
    }
    const [first, second] = outputs as [Map<string, string>, Map<string, string>];
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [file, content] of first) expect(second.get(file) === content, file).toBe(true);

    const localIndex = first.get(path.join("local", "index.ts"))!;
    expect(localIndex.split("\n")[0]).toMatch(
      /^\/\/ Code generated by mcp-gen from schemas\/schema\.ts \(sha256:7d7f4cc6f3ad/,
    );
    expect(localIndex).toContain('export type * from "./types.js";');
    expect(JSON.parse(first.get(path.join("local", ".mcp-gen.json"))!).manifest).toBe("schemas/schema.ts");
    const localIr = first.get(path.join("local", "ir.json"))!;
    expect(localIr).toContain('"file": "schemas/schema.ts"');
    expect(localIr).not.toContain("node_modules");
    // A --spec download is named as `npm run generate` names it: its ir.json is the committed one's, byte for byte.
    expect(first.get(path.join("spec", "ir.json"))).toBe(
      readFileSync(path.join(REPO_ROOT, "runtime/generated/protocol/2025-11-25/ir.json"), "utf8"),
    );

    mkdirSync(path.join(project, "bad"));
    const broken = readFileSync(path.join(project, "schemas/schema.ts"), "utf8").split("\n");
    const line = broken.findIndex((l) => l.startsWith("export interface Tool "));
    broken.splice(line + 1, 0, "  oops: <<>>;");
    writeFileSync(path.join(project, "bad/broken.ts"), broken.join("\n"));
    for (const bin of bins) {
      const failed = await run(
        bin,
        ["protocol", "--schema", "bad/broken.ts", "--revision", "r", "--out", "out-bad"],
        project,
      );
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(new RegExp(`^mcp-gen: bad/broken\\.ts:${line + 2}\\b`, "m"));
      expect(failed.stderr).not.toContain("../");
    }
  }, 240_000);

  it("the README's draft example compiles in an init project with init's own tsconfig", async () => {
    const project = path.join(scratch, "init-project");
    mkdirSync(path.join(project, "node_modules/@mcp-gen"), { recursive: true });
    mkdirSync(path.join(project, "node_modules/@types"), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, "runtime"), path.join(project, "node_modules/@mcp-gen/runtime"), "dir");
    symlinkSync(path.join(REPO_ROOT, "node_modules/zod"), path.join(project, "node_modules/zod"), "dir");
    symlinkSync(
      path.join(REPO_ROOT, "node_modules/@types/node"),
      path.join(project, "node_modules/@types/node"),
      "dir",
    );
    const bin = bins[1]!;
    const init = await run(bin, ["init"], project);
    expect(init.code, init.stderr).toBe(0);
    // The draft: the 2025-11-25 schema under a wire version of its own (so it adds no request the handlers must
    // serve), served where the specification repository keeps its draft.
    const latest = readFileSync(path.join(requireSpecRoot(), "2025-11-25/schema.ts"), "utf8");
    const draft = latest.replace(/LATEST_PROTOCOL_VERSION = "[^"]+"/, 'LATEST_PROTOCOL_VERSION = "DRAFT-2026-v1"');
    expect(draft).not.toBe(latest);
    server.serve(`${SPEC_URL_PREFIX}draft/schema.ts`, draft);
    const unverified = await run(bin, ["protocol", "--spec", "draft", "--out", "src/protocol/draft"], project);
    expect(unverified.code, unverified.stderr).toBe(0);
    expect(unverified.stderr).toMatch(
      /draft\/schema\.ts at b0f60ba5409d is not pinned by this mcp-gen: its content is UNVERIFIED/,
    );
    const manifest = readFileSync(path.join(project, "mcp.yaml"), "utf8");
    writeFileSync(
      path.join(project, "mcp.yaml"),
      manifest.replace(/^server:\n/m, "server:\n  revisions: [2025-11-25, { bindings: ./src/protocol/draft }]\n"),
    );
    const generate = await run(bin, ["generate"], project);
    expect(generate.code, generate.stderr).toBe(0);
    expect(readFileSync(path.join(project, "src/generated/definitions.ts"), "utf8")).toContain(
      "../protocol/draft/revision.js",
    );
    const tsc = spawnSync(process.execPath, [TSC, "--noEmit", "-p", project], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 240_000);
});
