/**
 * A generated Skills server bundled for an edge runtime serves its skills with no file system (issue 36.3): the
 * skills golden's generated server (test/manifest/golden/skills, files embedded at generation time) in a module
 * worker, bundled with esbuild for workerd, copied alone into an empty folder and run there (workerd has no file
 * system to read a folder from). Our own client lists, gets, reads and verifies every file over Streamable HTTP;
 * the oracle is the skill folders on disk, each file's SHA-256 and size computed here with node:crypto.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { skillsClient, skillsOf } from "../../runtime/skills/index.ts";
import { bundle, nodeImportsOf, type Bundle } from "./bundle.ts";
import { start, type Running } from "./platforms.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const GOLDEN = join(ROOT, "test/manifest/golden/skills");
const OUT = mkdtempSync(join(tmpdir(), "mcp-edge-skills-"));

const WORKER = `
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "./test/manifest/golden/skills/expected/index.ts";
export default { fetch: toFetchHandler(new McpHttpHandler(createServer({}), { sessions: false })) };
`;

/** Every file under `dir`, relative and `/`-separated, sorted. */
function filesOf(dir: string, rel = ""): string[] {
  return readdirSync(join(dir, rel))
    .sort()
    .flatMap((name) => {
      const child = rel ? `${rel}/${name}` : name;
      return statSync(join(dir, child)).isDirectory() ? filesOf(dir, child) : [child];
    });
}

/** The manifest's folders and the skill paths it serves them under (test/manifest/golden/skills/mcp.yaml). */
const FOLDERS = [
  { folder: "skills/pdf-processing", skillPath: "pdf-processing" },
  { folder: "skills/refunds", skillPath: "acme/billing/refunds" },
];

const onDisk = FOLDERS.flatMap(({ folder, skillPath }) =>
  filesOf(join(GOLDEN, folder)).map((file) => {
    const bytes = readFileSync(join(GOLDEN, folder, file));
    return { uri: `skill://${skillPath}/${file}`, bytes, digest: createHash("sha256").update(bytes).digest("hex") };
  }),
);

describe("a generated Skills server bundled for workerd", () => {
  let built: Bundle;
  let running: Running;
  beforeAll(async () => {
    built = await bundle({ contents: WORKER, resolveDir: ROOT }, "workerd", join(OUT, "skills-worker.js"));
    running = await start("workerd", built.file);
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(OUT, { recursive: true, force: true });
  });

  it("bundles without node: imports (the files are in the bundle, not read from a folder)", () => {
    expect(nodeImportsOf(built.metafile)).toEqual([]);
  });

  it("serves skills/list, skills/get and every skill:// file through resources/read, verified by our client", async () => {
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "edge-skills-host", version: "1" },
      extensions: [skillsClient({ server: "edge" })],
    });
    await client.connect(new StreamableHttpClientTransport(new URL(running.urls[0]!)));
    try {
      const skills = skillsOf(client);
      expect(skills.supported).toBe(true);
      const { skills: entries } = await skills.list();
      expect(entries.map((e) => e.uri)).toEqual([
        "skill://pdf-processing/SKILL.md",
        "skill://acme/billing/refunds/SKILL.md",
        "skill://acme/billing/refunds/eu/SKILL.md",
      ]);
      // Each top-level entry lists exactly the files on disk, with their digests and sizes.
      for (const entry of entries.slice(0, 2)) {
        const folder = entry.uri.slice(0, -"SKILL.md".length);
        const expected = onDisk.filter((f) => f.uri.startsWith(folder));
        const listed = entry.resources as { uri: string; digest: string; size: number }[];
        expect([...listed].sort((a, b) => (a.uri < b.uri ? -1 : 1))).toEqual(
          expected.map((f) => ({ uri: f.uri, digest: `sha256:${f.digest}`, size: f.bytes.length })),
        );
      }
      expect(await skills.get("skill://acme/billing/refunds/eu/SKILL.md")).toEqual(entries[2]);
      const unknown = await skills.get("skill://nowhere/SKILL.md").then(
        () => undefined,
        (e: unknown) => e as { code?: number },
      );
      expect(unknown?.code).toBe(-32602);
      // Every file reads back byte for byte, verified against the held entry.
      for (const file of onDisk) {
        const read = await skills.read(file.uri);
        expect(read.verified, file.uri).toBe(true);
        expect(Buffer.from(read.bytes).equals(file.bytes), file.uri).toBe(true);
      }
      const children = await skills.readDirectory("skill://acme/billing/refunds");
      expect(children.map((c) => [c.uri, c.mimeType])).toEqual([
        ["skill://acme/billing/refunds/SKILL.md", "text/markdown"],
        ["skill://acme/billing/refunds/assets", "inode/directory"],
        ["skill://acme/billing/refunds/eu", "inode/directory"],
      ]);
    } catch (error) {
      throw new Error(`${String(error)}\n${running.output()}`, { cause: error });
    } finally {
      await client.close();
    }
  });
});
