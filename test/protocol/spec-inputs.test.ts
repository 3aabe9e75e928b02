/**
 * The spec inputs of a fresh clone (`npm run spec`, scripts/spec-inputs.ts): without `../shared/spec` or
 * `MCP_SPEC_DIR` the pinned files are downloaded (here from a loopback copy of the two repositories), each checked
 * against its pinned sha256, and cached; a tampered file is refused with its name and both hashes; `MCP_SPEC_DIR` is
 * honoured before `../shared/spec`; and reading the spec root before a complete set-up fails with the instruction.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSpecInputs, requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { SKILLS_PAGE, skillsPage, SPEC_URL_PREFIX, startSpecServer, type SpecServer } from "./spec-server.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-spec-inputs-"));
const NO_SHARED = path.join(tmp, "no-shared-here");
let copy: string;
let server: SpecServer;

/** Every file of a folder, relative, `/`-separated, sorted (dotfiles left out). */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

beforeAll(async () => {
  copy = path.join(tmp, "copy");
  cpSync(requireSpecRoot(), copy, { recursive: true });
  server = await startSpecServer(copy);
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("spec inputs", () => {
  it("are downloaded at the pinned commits, verified and cached when no local copy exists", async () => {
    const root = path.join(tmp, "downloaded");
    const env = { MCP_SPEC_BASE_URL: server.url };
    expect(() => requireSpecRoot(root)).toThrow(/npm run spec/);
    const result = await ensureSpecInputs({ root, env, sharedDir: NO_SHARED });
    expect(result.source).toEqual({ kind: "url", base: server.url });
    const files = filesOf(root);
    expect(files).toEqual(filesOf(copy));
    expect(files).toContain("2024-11-05/schema.ts");
    expect(files).toContain("2026-07-28/examples/CallToolResult/result-with-structured-content.json");
    expect(files).toContain("extensions/tasks/spec.types.ts");
    // Assembled from the Skills page's TypeScript blocks (the page is downloaded, the file is not).
    expect(files).toContain("extensions/skills/schema.ts");
    expect(server.requests).toContain(SKILLS_PAGE);
    for (const file of files)
      expect(readFileSync(path.join(root, file)).equals(readFileSync(path.join(copy, file)))).toBe(true);
    expect(server.requests.length).toBe(files.length);
    expect(server.requests).toContain(`${SPEC_URL_PREFIX}2025-11-25/schema.ts`);
    expect(requireSpecRoot(root)).toBe(root);

    // Cached: a second run asks for nothing; a file damaged in the cache is fetched again, a stray file removed.
    server.requests.length = 0;
    expect((await ensureSpecInputs({ root, env, sharedDir: NO_SHARED })).fetched).toBe(0);
    expect(server.requests).toEqual([]);
    writeFileSync(path.join(root, "2025-03-26/schema.ts"), "export {};\n");
    writeFileSync(path.join(root, "2025-03-26/stray.ts"), "export {};\n");
    const again = await ensureSpecInputs({ root, env, sharedDir: NO_SHARED });
    expect(again.fetched).toBe(1);
    expect(again.removed).toEqual(["2025-03-26/stray.ts"]);
    expect(server.requests).toEqual([`${SPEC_URL_PREFIX}2025-03-26/schema.ts`]);
    expect(
      readFileSync(path.join(root, "2025-03-26/schema.ts")).equals(
        readFileSync(path.join(copy, "2025-03-26/schema.ts")),
      ),
    ).toBe(true);
  });

  it("refuses a tampered download, naming the file and both hashes, and leaves the root unusable", async () => {
    const root = path.join(tmp, "tampered");
    const original = readFileSync(path.join(copy, "2025-11-25/schema.ts"), "utf8");
    server.serve(`${SPEC_URL_PREFIX}2025-11-25/schema.ts`, original.replace("export interface", "export  interface"));
    try {
      await expect(
        ensureSpecInputs({ root, env: { MCP_SPEC_BASE_URL: server.url }, sharedDir: NO_SHARED }),
      ).rejects.toThrow(
        /refusing 2025-11-25\/schema\.ts from http:\/\/127\.0\.0\.1:\d+\/.*: its sha256 is [0-9a-f]{64}, not the pinned e74b56e73b2e/,
      );
      expect(() => requireSpecRoot(root)).toThrow(/npm run spec/);
    } finally {
      server.serve(`${SPEC_URL_PREFIX}2025-11-25/schema.ts`, original);
    }
  });

  it("refuses a Skills page whose TypeScript blocks assemble into anything but the pinned file", async () => {
    const root = path.join(tmp, "tampered-page");
    const schema = readFileSync(path.join(copy, "extensions/skills/schema.ts"), "utf8");
    server.serve(SKILLS_PAGE, skillsPage(schema.replace("size: number;", "size: string;")));
    try {
      await expect(
        ensureSpecInputs({ root, env: { MCP_SPEC_BASE_URL: server.url }, sharedDir: NO_SHARED }),
      ).rejects.toThrow(
        /refusing extensions\/skills\/schema\.ts from http:\/\/127\.0\.0\.1:\d+\/modelcontextprotocol\/ext-skills\/0682b7b6e9e6[0-9a-f]+\/specification\/stable\/skills\.mdx: its sha256 is [0-9a-f]{64}, not the pinned e1a77995e403/,
      );
    } finally {
      server.serve(SKILLS_PAGE, skillsPage(schema));
    }
    expect(() => requireSpecRoot(root)).toThrow(/npm run spec/);
  });

  it("names the URL when the download fails", async () => {
    const root = path.join(tmp, "unreachable");
    await expect(
      ensureSpecInputs({ root, env: { MCP_SPEC_BASE_URL: `${server.url}/nothing-here` }, sharedDir: NO_SHARED }),
    ).rejects.toThrow(/cannot download http:\/\/127\.0\.0\.1:\d+\/nothing-here\/modelcontextprotocol\/.*: HTTP 404/);
  });

  it("takes MCP_SPEC_DIR before ../shared/spec, and refuses a copy that differs from the pins", async () => {
    const root = path.join(tmp, "from-dir");
    const shared = path.join(tmp, "shared-spec");
    cpSync(copy, shared, { recursive: true });
    writeFileSync(path.join(shared, "2024-11-05/schema.ts"), "// not the spec\n");
    // ../shared/spec (here: a damaged one) is used when MCP_SPEC_DIR is not set ...
    await expect(ensureSpecInputs({ root, env: {}, sharedDir: shared })).rejects.toThrow(
      /refusing 2024-11-05\/schema\.ts from .*shared-spec\/2024-11-05\/schema\.ts: its sha256/,
    );
    // ... and MCP_SPEC_DIR wins over it, with no download.
    server.requests.length = 0;
    const result = await ensureSpecInputs({
      root,
      env: { MCP_SPEC_DIR: copy, MCP_SPEC_BASE_URL: server.url },
      sharedDir: shared,
    });
    expect(result.source).toEqual({ kind: "dir", dir: copy });
    expect(server.requests).toEqual([]);
    expect(filesOf(root)).toEqual(filesOf(copy));
    expect(requireSpecRoot(root)).toBe(root);
    await expect(ensureSpecInputs({ root, env: { MCP_SPEC_DIR: path.join(tmp, "absent") } })).rejects.toThrow(
      /MCP_SPEC_DIR=.*absent is not a folder/,
    );
    expect(existsSync(path.join(root, "2024-11-05/schema.ts"))).toBe(true);
  });
});
