/**
 * `mcp-gen import --config` of an HTTP server that requires OAuth: an official SDK v2 server (`oauth-v2-server.ts`)
 * trusting a real authorization server (oidc-provider on loopback). The CLI prints the authorization URL; a headless
 * browser approves it and lands on the CLI's loopback redirect; the import completes. Then the generated index's
 * `connect()` authorizes the same way in a user program compiled under a plain nodenext tsconfig, which calls the
 * server's tools with typed results; wrong argument types fail `tsc`. No token appears in any written file or output.
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { headlessAuthorize, startTestAs, type TestAs } from "../../runtime/auth/oauth-client/fixtures/oidc-as.ts";
import { CLI, REPO } from "../cli-run.ts";
import { startOAuthV2Server, type OAuthV2Server } from "./oauth-v2-server.ts";

const SCRATCH = path.join(REPO, ".tmp", `consumer-oauth-${process.pid}`);
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
/** A JWT (the test AS issues JWT access tokens): none may be written or printed. */
const JWT = /eyJ[\w-]{10,}\.[\w-]{10,}\./;
let as: TestAs;
let mcp: OAuthV2Server;

beforeAll(async () => {
  as = await startTestAs();
  mcp = await startOAuthV2Server(as.issuer, as.jwksUrl);
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(path.join(SCRATCH, "package.json"), JSON.stringify({ type: "module", private: true }));
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify({ mcpServers: { secure: { url: mcp.url } } }));
});

afterAll(async () => {
  await mcp?.close();
  await as?.close();
  await rm(SCRATCH, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Authorizations approved (each: the browser approved at the AS and followed the redirect back). */
  readonly approved: number;
}

/** Runs `node args…` in SCRATCH; each authorization URL its stderr shows (`urlPattern`) is approved by a browser. */
async function runApproving(args: readonly string[], urlPattern: RegExp): Promise<Run> {
  const child = spawn(process.execPath, args, { cwd: SCRATCH });
  let stdout = "";
  let stderr = "";
  let seen = 0;
  const approvals: Promise<unknown>[] = [];
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const urls = [...stderr.matchAll(new RegExp(urlPattern, "gm"))].map((m) => new URL(m[1]!));
    for (const url of urls.slice(seen)) {
      // The browser: approve at the AS, then follow the redirect back to the program's loopback listener.
      const redirect = url.searchParams.get("redirect_uri")!;
      approvals.push(headlessAuthorize(url, redirect).then((callback) => fetch(callback)));
    }
    seen = urls.length;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  await Promise.all(approvals);
  return { code, stdout, stderr, approved: approvals.length };
}

async function writtenTexts(): Promise<string[]> {
  const entries = await readdir(path.join(SCRATCH, "mcp-servers"), { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return Promise.all(files.map((f) => readFile(f, "utf8")));
}

async function tsc(project: string): Promise<{ code: number; output: string }> {
  try {
    await promisify(execFile)(process.execPath, [TSC, "-p", project], { cwd: SCRATCH });
    return { code: 0, output: "" };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

it("import authorizes through the runtime's OAuth client when the server answers 401", async () => {
  const cli = [CLI, "import", "--config", ".mcp.json"];
  const run = await runApproving(cli, /^mcp-gen: secure: open this URL to authorize: (http:\/\/127\.0\.0\.1:\d+\/\S+)/);
  expect(run.code, run.stderr).toBe(0);
  expect(run.approved).toBe(1);
  expect(run.stdout).toContain("imported 1 of 1 servers");
  const manifest = await readFile(path.join(SCRATCH, "mcp-servers", "secure", "mcp.yaml"), "utf8");
  expect(manifest).toContain("name: add");
  expect(manifest).toContain("name: whoami");
  expect(as.requests.some((r) => r.startsWith("POST /token"))).toBe(true);
  // Tokens are kept in memory only.
  for (const text of await writtenTexts()) expect(text).not.toMatch(JWT);
  expect(run.stdout + run.stderr).not.toMatch(JWT);
}, 180_000);

it("the generated connect() authorizes too, and a user program calls the server's tools with typed results", async () => {
  await writeFile(
    path.join(SCRATCH, "use.ts"),
    [
      'import { connect } from "./mcp-servers/index.js";',
      "const secure = await connect('secure');",
      "try {",
      "  const added = await secure.tools.add({ a: 2, b: 3 });",
      "  const sum: number = added.structuredContent.sum;",
      "  const me = await secure.tools.whoami({});",
      "  const subject: string = me.structuredContent.subject;",
      "  console.log(JSON.stringify({ sum, subject }));",
      "} finally {",
      "  await secure.close();",
      "}",
      "",
    ].join("\n"),
  );
  await writeFile(
    path.join(SCRATCH, "wrong.ts"),
    [
      'import { connect } from "./mcp-servers/index.js";',
      "const secure = await connect('secure', { oauth: { open: () => undefined } });",
      "await secure.tools.add({ a: '2', b: 3 });",
      "",
    ].join("\n"),
  );
  const options = { module: "nodenext", target: "es2022", strict: true, exactOptionalPropertyTypes: true };
  // One compilation of both programs (tsc still emits dist/use.js): everything outside wrong.ts compiles clean, and
  // wrong.ts fails at its wrong argument type.
  await writeFile(
    path.join(SCRATCH, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...options, outDir: "dist", types: ["node"] },
      include: ["use.ts", "wrong.ts"],
    }),
  );
  // Each diagnostic with its continuation lines, told apart by the file it starts in.
  const diagnostics = (await tsc("tsconfig.json")).output.split(/\n(?=\S)/).filter((d) => d.trim() !== "");
  expect(diagnostics.filter((d) => !d.startsWith("wrong.ts("))).toEqual([]);
  expect(diagnostics.join("\n")).toMatch(
    /wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
  );

  const before = mcp.challenged();
  // The runtime's loopback authorizer prints the URL on stderr by default.
  const run = await runApproving([path.join("dist", "use.js")], /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)/);
  expect(run.code, run.stderr).toBe(0);
  expect(run.approved).toBe(1);
  expect(mcp.challenged()).toBeGreaterThan(before);
  expect(JSON.parse(run.stdout)).toEqual({ sum: 5, subject: "user-1" });
  expect(run.stdout + run.stderr).not.toMatch(JWT);
  for (const text of await writtenTexts()) expect(text).not.toMatch(JWT);
}, 300_000);
