/**
 * test/package/local-registry.mjs, the loopback npm registry user-flow.sh installs the published packages from: what
 * npm reads from it (a packument whose integrity is the served tarball's), what it passes through to the upstream
 * registry (here a stub on loopback, so no network), and a clear 4xx/502 for what it cannot serve, without crashing.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REGISTRY = path.join(import.meta.dirname, "local-registry.mjs");
const scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-registry-"));
const ACCEPT = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";
const UPSTREAM_TARBALL = Buffer.from("bytes of left-pad 1.0.0");

/** The upstream registry: a packument, a tarball, a 404 without content-type, a dropped connection. */
const seen: { url: string; accept: string | undefined }[] = [];
const upstream: Server = createServer((request, response) => {
  seen.push({ url: request.url ?? "", accept: request.headers.accept });
  if (request.url === "/left-pad" || request.url === "/@scope%2fthing") {
    const versions = { "1.0.0": { name: "left-pad" }, "2.0.0": { name: "left-pad" } };
    response.writeHead(200, { "content-type": "application/vnd.npm.install-v1+json" });
    response.end(JSON.stringify({ name: "left-pad", "dist-tags": { latest: "2.0.0", next: "3.0.0" }, versions }));
  } else if (request.url === "/left-pad/-/left-pad-1.0.0.tgz") {
    response.writeHead(200, { "content-type": "application/octet-stream" });
    response.end(UPSTREAM_TARBALL);
  } else if (request.url === "/broken") request.socket.destroy();
  else response.writeHead(404).end();
});

let registry: ChildProcess;
let base = "";
let tarball: Buffer;

beforeAll(async () => {
  mkdirSync(path.join(scratch, "package"));
  writeFileSync(path.join(scratch, "package/package.json"), JSON.stringify({ name: "@demo/pkg", version: "1.2.3" }));
  writeFileSync(path.join(scratch, "package/index.js"), "export {};\n");
  execFileSync("tar", ["-czf", "demo.tgz", "package"], { cwd: scratch });
  tarball = readFileSync(path.join(scratch, "demo.tgz"));
  upstream.listen(0, "127.0.0.1");
  await once(upstream, "listening");
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  registry = spawn(
    process.execPath,
    [REGISTRY, "--upstream", upstreamUrl, "--pin", "left-pad@1.0.0", "--pin", "@scope/thing@9.9.9", "demo.tgz"],
    { cwd: scratch, stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(createInterface({ input: registry.stdout! }), "line")) as [string];
  base = line;
});
afterAll(() => {
  registry?.kill();
  upstream.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("local-registry.mjs", () => {
  it("prints a loopback base URL with a path of its own", () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]{36}\/$/);
  });

  it("serves a tarball's package as its only version, with the tarball's sha512 and sha1", async () => {
    const response = await fetch(`${base}@demo%2fpkg`, { headers: { accept: ACCEPT } });
    expect(response.status).toBe(200);
    const packument = (await response.json()) as {
      name: string;
      "dist-tags": Record<string, string>;
      versions: Record<string, { name: string; version: string; dist: Record<string, string> }>;
    };
    expect(packument.name).toBe("@demo/pkg");
    expect(packument["dist-tags"]).toEqual({ latest: "1.2.3" });
    expect(Object.keys(packument.versions)).toEqual(["1.2.3"]);
    const { dist, ...manifest } = packument.versions["1.2.3"]!;
    expect(manifest).toEqual({ name: "@demo/pkg", version: "1.2.3" });
    expect(dist.integrity).toBe(`sha512-${createHash("sha512").update(tarball).digest("base64")}`);
    expect(dist.shasum).toBe(createHash("sha1").update(tarball).digest("hex"));
    expect(dist.tarball!.startsWith(base)).toBe(true);
    const download = await fetch(dist.tarball!);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(tarball)).toBe(true);
  });

  it("passes other packages through, Accept forwarded, status and content-type kept, a pin moving latest", async () => {
    const response = await fetch(`${base}left-pad`, { headers: { accept: ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.npm.install-v1+json");
    const packument = (await response.json()) as { "dist-tags": Record<string, string>; versions: object };
    expect(packument["dist-tags"]).toEqual({ latest: "1.0.0", next: "3.0.0" });
    expect(Object.keys(packument.versions)).toEqual(["1.0.0", "2.0.0"]);
    expect(seen.find((request) => request.url === "/left-pad")?.accept).toBe(ACCEPT);

    const download = await fetch(`${base}left-pad/-/left-pad-1.0.0.tgz`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(Buffer.from(await download.arrayBuffer()).equals(UPSTREAM_TARBALL)).toBe(true);

    const missing = await fetch(`${base}no-such-package`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBeNull();
  });

  it("refuses what it cannot serve with a clear status, and keeps serving", async () => {
    const pinMissing = await fetch(`${base}@scope%2fthing`);
    expect(seen.map((request) => request.url)).toContain("/@scope%2fthing"); // the scoped name stays encoded
    expect([pinMissing.status, await pinMissing.text()]).toEqual([502, "upstream has no @scope/thing@9.9.9 to pin\n"]);
    const put = await fetch(`${base}@demo%2fpkg`, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect((await fetch(base.replace(/\/[^/]+\/$/, "/elsewhere"))).status).toBe(404);
    expect((await fetch(`${base}%zz`)).status).toBe(400);
    const broken = await fetch(`${base}broken`);
    expect(broken.status).toBe(502);
    expect(await broken.text()).toMatch(/^upstream request failed: /);
    expect(registry.exitCode).toBeNull();
    expect((await fetch(`${base}@demo%2fpkg`)).status).toBe(200);
  });

  it("without an upstream or a tarball it prints its usage and exits 2", () => {
    const run = spawnSync(process.execPath, [REGISTRY, "demo.tgz"], { cwd: scratch, encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: local-registry\.mjs --upstream/);
  });
});
