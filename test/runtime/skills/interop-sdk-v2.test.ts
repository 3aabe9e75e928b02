/**
 * Skills interop with the official SDK v2 (2.4.0), both directions, over stdio and Streamable HTTP, at 2026-07-28
 * (the revision the extension's bindings extend): our client lists, gets, reads and verifies the skills an SDK v2
 * server serves from a folder with its own `loadSkills` (digests computed by the SDK; the expected ones here by
 * node:crypto), and the SDK v2 client's `SkillsClient` (`@modelcontextprotocol/client/ext/skills`, which verifies
 * each file itself) lists and reads our server's skills.
 */
import { Client, StreamableHTTPClientTransport as V2HttpTransport } from "@modelcontextprotocol/client";
import { SKILLS_EXTENSION_ID, SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, type Transport } from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/index.ts";
import { skillsClient, skillsOf } from "../../../runtime/skills/index.ts";
import { nodeArgs } from "../../fixture-run.ts";
import { killPeers, startFixture } from "../client/peers.ts";
import { EMAIL, GIT_FLOW, REFUNDS, REFUNDS_MD } from "./fixtures/skill-files.ts";

const OUR_SERVER = fileURLToPath(new URL("./fixtures/skills-server.ts", import.meta.url));
const V2_SERVER = fileURLToPath(new URL("./fixtures/v2-skills-server.ts", import.meta.url));

/** The folder the SDK v2 server loads: one skill with a text file and a binary one. */
const FOLDER = mkdtempSync(path.join(tmpdir(), "v2-skills-"));
const PDF_SKILL_MD = "---\nname: pdf-forms\ndescription: Fill PDF forms\nmetadata:\n  author: acme\n---\nFill them.\n";
const GUIDE = "# Guide\nStep one.\n";
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xfe]);
mkdirSync(path.join(FOLDER, "pdf-forms", "references"), { recursive: true });
mkdirSync(path.join(FOLDER, "pdf-forms", "assets"));
writeFileSync(path.join(FOLDER, "pdf-forms", "SKILL.md"), PDF_SKILL_MD);
writeFileSync(path.join(FOLDER, "pdf-forms", "references", "GUIDE.md"), GUIDE);
writeFileSync(path.join(FOLDER, "pdf-forms", "assets", "logo.png"), LOGO);

const digest = (bytes: string | Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const ROOT = "skill://pdf-forms";
const PDF_FILES: Record<string, string | Buffer> = {
  [`${ROOT}/SKILL.md`]: PDF_SKILL_MD,
  [`${ROOT}/assets/logo.png`]: LOGO,
  [`${ROOT}/references/GUIDE.md`]: GUIDE,
};

afterEach(killPeers);
afterAll(() => rmSync(FOLDER, { recursive: true, force: true }));

const ourStdio = (program: string, ...args: string[]) =>
  new StdioClientTransport({ command: process.execPath, args: [...nodeArgs(program), ...args], stderr: "pipe" });

describe.each([
  ["stdio", async (): Promise<Transport> => ourStdio(V2_SERVER, FOLDER)],
  [
    "Streamable HTTP",
    async (): Promise<Transport> => new StreamableHttpClientTransport(await startFixture(V2_SERVER, FOLDER, "--http")),
  ],
])("our skills client → SDK v2 loadSkills server over %s", (_, transport) => {
  it("lists, gets, reads and verifies every file", async () => {
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "mcp-gen-host", version: "1" },
      extensions: [skillsClient({ server: "v2" })],
    });
    await client.connect(await transport());
    try {
      expect(client.revision).toBe("2026-07-28");
      const skills = skillsOf(client);
      expect(skills.supported).toBe(true);
      const { skills: listed } = await skills.list();
      expect(listed).toHaveLength(1);
      const entry = listed[0]!;
      expect(entry.uri).toBe(`${ROOT}/SKILL.md`);
      expect(entry.frontmatter).toEqual({
        name: "pdf-forms",
        description: "Fill PDF forms",
        metadata: { author: "acme" },
      });
      const files = entry.resources === "dynamic" ? [] : entry.resources;
      expect(Object.fromEntries(files.map((f) => [f.uri, [f.digest, f.size]]))).toEqual(
        Object.fromEntries(Object.entries(PDF_FILES).map(([uri, bytes]) => [uri, [digest(bytes), bytes.length]])),
      );
      expect(await skills.get(entry.uri)).toEqual(entry);
      for (const [uri, content] of Object.entries(PDF_FILES)) {
        const read = await skills.read(uri);
        expect(read.verified).toBe(true);
        expect(Buffer.from(read.bytes).equals(Buffer.from(content))).toBe(true);
      }
      expect((await skills.read(`${ROOT}/SKILL.md`)).frontmatter).toEqual(entry.frontmatter);
      expect(skills.directoryRead).toBe(true);
      const children = await skills.readDirectory(ROOT);
      expect(children.map((c) => c.uri).sort()).toEqual([`${ROOT}/SKILL.md`, `${ROOT}/assets`, `${ROOT}/references`]);
    } finally {
      await client.close();
    }
  });
});

describe.each([
  [
    "stdio",
    async () => new V2StdioTransport({ command: process.execPath, args: nodeArgs(OUR_SERVER), stderr: "pipe" }),
  ],
  ["Streamable HTTP", async () => new V2HttpTransport(new URL(await startFixture(OUR_SERVER, "--http")))],
])("SDK v2 SkillsClient → our skills server over %s", (_, transport) => {
  it("lists our entries and reads each file, verified by the SDK", async () => {
    const client = new Client(
      { name: "v2-host", version: "2.4.0" },
      {
        // SkillsClient does not declare the extension itself; our server serves its methods only to clients that do.
        capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    await client.connect(await transport());
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills).toEqual([REFUNDS, GIT_FLOW]);
      const manifest = await skills.read(listing.skills[0]!);
      expect(manifest).toMatchObject({ verified: true, text: REFUNDS_MD, frontmatter: REFUNDS.frontmatter });
      const email = await skills.read(listing.skills[0]!, "examples/email.md");
      expect(email).toMatchObject({ verified: true, text: EMAIL });
      expect((await skills.get(GIT_FLOW.uri)).skill).toEqual(GIT_FLOW);
      const children = await skills.readDirectory("skill://acme/refunds");
      expect(children.resources.map((c) => [c.uri, c.mimeType])).toEqual([
        ["skill://acme/refunds/SKILL.md", "text/markdown"],
        ["skill://acme/refunds/examples", "inode/directory"],
      ]);
    } finally {
      await client.close();
    }
  });
});
