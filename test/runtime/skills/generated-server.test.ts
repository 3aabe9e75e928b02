/**
 * A server generated from a manifest's `skills` (the golden test/manifest/golden/skills) serves its skill folders
 * with no hand wiring, to the official SDK v2's Skills client (`@modelcontextprotocol/client/ext/skills`, which
 * verifies every read against the entry) over stdio and Streamable HTTP. That client declares no extension (the page
 * asks only the server to declare it), so this also shows the server serves hosts that declare nothing. The oracle
 * is the folders on disk: every file's SHA-256 and size computed here with node:crypto.
 */
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { createServer } from "../../manifest/golden/skills/expected/index.ts";
import { nodeArgs } from "../../fixture-run.ts";

const GOLDEN = fileURLToPath(new URL("../../manifest/golden/skills/", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/golden-skills-server.ts", import.meta.url));

/** Every file under `dir`, relative and `/`-separated, sorted. */
function filesOf(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel))
    .sort()
    .flatMap((name) => {
      const child = rel ? `${rel}/${name}` : name;
      return statSync(path.join(dir, child)).isDirectory() ? filesOf(dir, child) : [child];
    });
}

/** The entry the page requires for the skill at `folder` served under `skillPath`, from the bytes on disk. */
function expectedResources(folder: string, skillPath: string) {
  const dir = path.join(GOLDEN, folder);
  return filesOf(dir).map((file) => {
    const bytes = readFileSync(path.join(dir, file));
    return {
      uri: `skill://${skillPath}/${file}`,
      digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
      size: bytes.length,
    };
  });
}

const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);

async function exercise(client: Client): Promise<void> {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  expect(skills.directoryRead).toBe(true);
  const { skills: entries } = await skills.list();
  expect(entries.map((e) => e.uri)).toEqual([
    "skill://pdf-processing/SKILL.md",
    "skill://acme/billing/refunds/SKILL.md",
    "skill://acme/billing/refunds/eu/SKILL.md",
  ]);
  const pdf = entries[0]!;
  expect(pdf.frontmatter).toEqual({
    name: "pdf-processing",
    description: "Extract text from PDF documents and fill in PDF forms.",
    license: "Apache-2.0",
    metadata: { author: "example" },
  });
  expect([...(pdf.resources as { uri: string }[])].sort(byUri)).toEqual(
    expectedResources("skills/pdf-processing", "pdf-processing").sort(byUri),
  );
  const refunds = entries[1]!;
  expect([...(refunds.resources as { uri: string }[])].sort(byUri)).toEqual(
    expectedResources("skills/refunds", "acme/billing/refunds").sort(byUri),
  );
  // Every file of every entry reads back verified (size, digest, and SKILL.md's frontmatter against the entry).
  for (const entry of entries)
    for (const resource of entry.resources as { uri: string }[]) {
      const file = await skills.read(entry, resource.uri);
      expect(file.verified).toBe(true);
    }
  const logo = await skills.read(refunds, "assets/logo.png");
  expect(Buffer.from(logo.bytes)).toEqual(readFileSync(path.join(GOLDEN, "skills/refunds/assets/logo.png")));
  expect((await skills.get("skill://acme/billing/refunds/eu/SKILL.md")).skill).toEqual(entries[2]);
  const root = await skills.readDirectory("skill://acme/billing/refunds");
  expect(root.resources.map((r) => [r.uri, r.mimeType])).toEqual([
    ["skill://acme/billing/refunds/SKILL.md", "text/markdown"],
    ["skill://acme/billing/refunds/assets", "inode/directory"],
    ["skill://acme/billing/refunds/eu", "inode/directory"],
  ]);
  const listed = await client.listResources();
  expect(listed.resources.map((r) => [r.uri, r.name, r.mimeType])).toEqual([
    ["skill://pdf-processing/SKILL.md", "pdf-processing", "text/markdown"],
    ["skill://acme/billing/refunds/SKILL.md", "refunds", "text/markdown"],
    ["skill://acme/billing/refunds/eu/SKILL.md", "eu", "text/markdown"],
  ]);
}

const v2Client = () =>
  new Client({ name: "v2-skills-host", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });

describe("a generated server serves its manifest's skills to the SDK v2 Skills client", () => {
  it("over stdio", async () => {
    const client = v2Client();
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: nodeArgs(FIXTURE), stderr: "pipe" }),
    );
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  describe("over Streamable HTTP", () => {
    let running: RunningServer;
    beforeAll(async () => {
      running = await serve(createServer({}), { port: 0 });
    });
    afterAll(() => running.close());

    it("lists, gets, reads and verifies every file, and reads directories", async () => {
      const client = v2Client();
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  });
});
