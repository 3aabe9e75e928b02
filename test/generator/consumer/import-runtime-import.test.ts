/**
 * `mcp-gen import --config --runtime-import`: the index and each server's typed client import the runtime from the
 * named package, the index its `/node`, `/http` and `/auth` subpath entries as generated code names them
 * (`packageRuntime`). A path has no subpath entries: it is refused, naming the option, before any server is started
 * or anything is written.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, REPO } from "../cli-run.ts";

const SCRATCH = path.join(REPO, ".tmp", `consumer-runtime-import-${process.pid}`);
const SERVER = path.join(REPO, "test/generator/consumer/tools-file-server.mjs");
/** Written by the server when it starts (a stdio server's command line run through `sh`), so a start is visible. */
const STARTED = path.join(SCRATCH, "started");

/** Every module specifier a TypeScript file imports from. */
const specifiers = (text: string) => [...text.matchAll(/ from "([^"]+)";/g)].map((m) => m[1]!);

beforeAll(async () => {
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(
    path.join(SCRATCH, "tools.json"),
    JSON.stringify([{ name: "ping", inputSchema: { type: "object" } }]),
  );
  const start = `touch ${JSON.stringify(STARTED)} && exec ${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER)} tools.json`;
  const config = { mcpServers: { files: { command: "sh", args: ["-c", start] } } };
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify(config));
});

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

it("refuses a path before starting a server or writing anything", async () => {
  for (const given of ["../runtime/index.ts", "/opt/runtime/index.js", ""]) {
    const run = await cli(SCRATCH, "import", "--config", ".mcp.json", "--runtime-import", given, "--out", "by-path");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `mcp-gen: --runtime-import ${JSON.stringify(given)} is not a package name: the index imports the runtime package's node, http and auth entries`,
    );
    expect(existsSync(path.join(SCRATCH, "by-path"))).toBe(false);
    expect(existsSync(STARTED)).toBe(false);
  }
}, 120_000);

it("imports the runtime's entries from the named package, in the index and the typed client", async () => {
  const run = await cli(SCRATCH, "import", "--config", ".mcp.json", "--runtime-import", "@acme/rt", "--out", "pkg");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(existsSync(STARTED)).toBe(true);
  const index = specifiers(await readFile(path.join(SCRATCH, "pkg/index.ts"), "utf8"));
  expect(index.filter((s) => !s.startsWith("./") && !s.startsWith("node:")).sort()).toEqual([
    "@acme/rt",
    "@acme/rt/auth",
    "@acme/rt/http",
    "@acme/rt/node",
  ]);
  const client = specifiers(await readFile(path.join(SCRATCH, "pkg/files/generated/client.ts"), "utf8"));
  expect(client).toContain("@acme/rt");
  expect(client.filter((s) => s.includes("@mcp-gen/runtime"))).toEqual([]);
}, 120_000);
