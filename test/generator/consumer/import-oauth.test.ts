/**
 * `mcp-gen import --config` of an HTTP server that requires OAuth: the weather example served with a JWT verifier
 * on a real authorization server (oidc-provider on loopback). The CLI prints the authorization URL; a headless
 * browser approves it and lands on the CLI's loopback redirect; the import then completes, and no token appears
 * in any written file or in the output.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { handlers } from "../../../examples/weather/handlers.ts";
import { createServer } from "../../../examples/weather/generated/index.ts";
import { jwtVerifier } from "../../../runtime/auth/jwt.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { headlessAuthorize, startTestAs, type TestAs } from "../../runtime/auth/oauth-client/fixtures/oidc-as.ts";
import { REPO } from "../cli-run.ts";

const SCRATCH = path.join(REPO, ".tmp", `consumer-oauth-${process.pid}`);
let as: TestAs;
let mcp: RunningServer;

beforeAll(async () => {
  as = await startTestAs();
  const probe = await serve(createServer(handlers));
  const port = probe.port;
  await probe.close();
  const resource = `http://127.0.0.1:${port}/mcp`;
  mcp = await serve(createServer(handlers), {
    port,
    auth: {
      verifyToken: jwtVerifier({ issuer: as.issuer, audience: resource, jwksUrl: as.jwksUrl }),
      resourceMetadata: { resource, authorization_servers: [as.issuer], scopes_supported: ["mcp:read"] },
    },
  });
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify({ mcpServers: { weather: { url: resource } } }));
});

afterAll(async () => {
  await mcp?.close();
  await as?.close();
  await rm(SCRATCH, { recursive: true, force: true });
});

it("authorizes through the runtime's OAuth client when the server answers 401, then imports", async () => {
  const child = spawn(process.execPath, [path.join(REPO, "bin/mcp-gen.js"), "import", "--config", ".mcp.json"], {
    cwd: SCRATCH,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const approved = new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /weather: open this URL to authorize: (\S+)/.exec(stderr);
      if (match && !stderr.includes("(approved)")) {
        stderr += "(approved)";
        const url = new URL(match[1]!);
        const redirect = url.searchParams.get("redirect_uri")!;
        // The browser: approve at the AS, then follow the redirect back to the CLI's loopback listener.
        headlessAuthorize(url, redirect)
          .then((callback) => fetch(callback))
          .then(() => resolve(redirect), reject);
      }
    });
  });
  const [code] = (await Promise.all([new Promise((resolve) => child.once("exit", resolve)), approved])) as [
    number,
    string,
  ];
  expect(stderr).toMatch(/^mcp-gen: weather: open this URL to authorize: http:\/\/127\.0\.0\.1:\d+\//m);
  expect(code, stderr).toBe(0);
  expect(stdout).toContain("imported 1 of 1 servers");
  const manifest = await readFile(path.join(SCRATCH, "mcp-servers", "weather", "mcp.yaml"), "utf8");
  expect(manifest).toContain("name: get_forecast");
  expect(as.requests.some((r) => r.startsWith("POST /token"))).toBe(true);
  // Tokens are kept in memory only: nothing written looks like a JWT.
  const entries = await readdir(path.join(SCRATCH, "mcp-servers"), { recursive: true, withFileTypes: true });
  for (const e of entries.filter((x) => x.isFile())) {
    expect(await readFile(path.join(e.parentPath, e.name), "utf8")).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
  }
  expect(stdout + stderr).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
}, 180_000);
