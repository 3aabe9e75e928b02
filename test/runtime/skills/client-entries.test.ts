/**
 * The Skills client's checks that need a server saying odd things, in process (memory transport): entries it refuses
 * to hold (`SkillEntryError`), dynamic skills (no digests, frontmatter still checked), SKILL.md with a byte order
 * mark and CRLF lines, a frontmatter that is not YAML, and what it refuses to send (a directory read the server did
 * not declare). The hostile server is a plain `ServerExtension` answering `skills/list` and `skills/get` itself.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
  type ServerExtension,
} from "../../../runtime/index.ts";
import { extension } from "../../../runtime/generated/extensions/skills/extension.ts";
import {
  embeddedSkillFiles,
  SkillEntryError,
  skills,
  skillsClient,
  skillsOf,
  SkillVerificationError,
  type SkillDefinition,
} from "../../../runtime/skills/index.ts";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

async function host(serverExtensions: ServerExtension[]) {
  const server = new McpServer({
    revisions: builtinRevisions,
    info: { name: "odd", version: "1" },
    extensions: serverExtensions,
  });
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const sent: string[] = [];
  const send = a.send.bind(a);
  a.send = (message, options) => {
    const method = (message as { method?: unknown }).method;
    if (typeof method === "string") sent.push(method);
    return send(message, options);
  };
  const client = new McpClient({
    info: { name: "h", version: "1" },
    revisions: builtinRevisions,
    extensions: [skillsClient({ server: "odd" })],
  });
  await client.connect(a);
  return { client, skills: skillsOf(client), sent };
}

/** A server extension that answers skills/list and skills/get with whatever it is given. */
function saying(list: unknown[], get?: unknown): ServerExtension {
  return {
    id: extension.id,
    versions: extension.versions,
    methods: [extension.methods["skills/list"], extension.methods["skills/get"]],
    serve: () => ({
      capabilities: { resources: {} },
      requests: {
        "skills/list": () => ({ skills: list }),
        "skills/get": () => ({ skill: get ?? list[0] }),
      },
    }),
  };
}

const GOOD = "skill://odd/SKILL.md";
const entry = (resources: unknown, uri = GOOD) => ({
  uri,
  frontmatter: { name: "odd", description: "d" },
  resources,
});
const item = (uri: string, digest = sha("x"), size = 1) => ({ uri, digest, size });

describe("skills client entries", () => {
  it("refuses entries it could not verify anything against, naming each problem", async () => {
    const { client, skills } = await host([
      saying([
        entry([item(GOOD, sha("x").toUpperCase())]),
        entry([item("skill://b/SKILL.md", sha("x"), -1)], "skill://b/SKILL.md"),
        entry([item("skill://c/SKILL.md"), item("skill://elsewhere/x.md")], "skill://c/SKILL.md"),
        entry([item("skill://d/other.md")], "skill://d/SKILL.md"),
        entry("dynamic", "skill://e/README.md"),
        entry([item("skill://f/SKILL.md"), item("skill://f/SKILL.md")], "skill://f/SKILL.md"),
      ]),
    ]);
    const error = await skills.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkillEntryError);
    expect((error as SkillEntryError).problems).toEqual([
      `${GOOD}: file ${GOOD}: digest is not sha256: and 64 lowercase hex`,
      "skill://b/SKILL.md: file skill://b/SKILL.md: size is not a byte count",
      "skill://c/SKILL.md: file skill://elsewhere/x.md is outside the skill's folder",
      "skill://d/SKILL.md: its resources do not list its SKILL.md",
      "skill://e/README.md: its uri names no SKILL.md",
      "skill://f/SKILL.md: file skill://f/SKILL.md is listed twice",
    ]);
    // Nothing of a refused listing is held.
    const unlisted = await skills.read(GOOD).catch((e: unknown) => e);
    expect((unlisted as SkillVerificationError).reason).toBe("unlisted");
    await client.close();
  });

  it("refuses a skills/get answer for another skill", async () => {
    const other = entry([item("skill://other/SKILL.md")], "skill://other/SKILL.md");
    const { client, skills } = await host([saying([], other)]);
    await expect(skills.get(GOOD)).rejects.toThrow(SkillEntryError);
    await client.close();
  });

  it("lists nothing from a server without the extension and sends no directory read it did not declare", async () => {
    const bare = await host([]);
    expect(bare.skills.supported).toBe(false);
    expect(await bare.skills.list()).toEqual({ skills: [] });
    await bare.client.close();
    const { client, skills: api, sent } = await host([saying([])]);
    expect(api.directoryRead).toBe(false);
    await expect(api.readDirectory("skill://odd")).rejects.toThrow(ProtocolUsageError);
    expect(sent).not.toContain("resources/directory/read");
    await client.close();
  });
});

describe("skills client reads", () => {
  const dynamic = (skillMd: string): SkillDefinition => ({
    path: "reports/daily",
    frontmatter: { name: "daily", description: "Today's report", tags: ["ops", "daily"] },
    resources: "dynamic",
    read: (file) => (file === "SKILL.md" ? skillMd : file === "data/today.csv" ? "a,b\n1,2\n" : undefined),
  });

  it("reads a dynamic skill's files unverified, but checks its SKILL.md's frontmatter", async () => {
    const md = "---\nname: daily\ndescription: Today's report\ntags: [ops, daily]\n---\nBody\n";
    const { client, skills: api } = await host([skills({ skills: [dynamic(md)] })]);
    await api.list();
    const manifest = await api.read("skill://reports/daily/SKILL.md");
    expect(manifest).toMatchObject({ verified: false, body: "Body\n" });
    expect(manifest.frontmatter).toEqual({ name: "daily", description: "Today's report", tags: ["ops", "daily"] });
    expect(await api.read("skill://reports/daily/data/today.csv")).toMatchObject({
      verified: false,
      text: "a,b\n1,2\n",
    });
    await client.close();
  });

  it.each([
    ["a changed list item", "---\nname: daily\ndescription: Today's report\ntags: [ops]\n---\n", ['"tags": differs']],
    [
      "a field the entry lacks",
      "---\nname: daily\ndescription: Today's report\ntags: [ops, daily]\nallowed-tools: Bash\n---\n",
      ['"allowed-tools": in SKILL.md, not in the entry'],
    ],
    [
      "a field missing",
      "---\nname: daily\ndescription: Today's report\n---\n",
      ['"tags": in the entry, not in SKILL.md'],
    ],
    ["no frontmatter", "# Daily\n", []],
    ["frontmatter that is not YAML", "---\nname: daily\n  description: [\n---\n", []],
    ["a duplicate key", "---\nname: daily\nname: other\n---\n", []],
  ])("refuses a dynamic SKILL.md with %s", async (_, md, differences) => {
    const { client, skills: api } = await host([skills({ skills: [dynamic(md)] })]);
    await api.list();
    const error = await api.read("skill://reports/daily/SKILL.md").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).reason).toBe("frontmatter");
    expect((error as SkillVerificationError).differences).toEqual(differences);
    expect((error as Error).message).not.toContain("Bash");
    await client.close();
  });

  it("verifies a SKILL.md with a byte order mark and CRLF lines", async () => {
    const md = "\uFEFF---\r\nname: crlf\r\ndescription: Windows\r\n---\r\nBody\r\n";
    const definition: SkillDefinition = {
      path: "crlf",
      frontmatter: { name: "crlf", description: "Windows" },
      files: [{ path: "SKILL.md", sha256: sha(md).slice(7), size: Buffer.byteLength(md) }],
    };
    const load = embeddedSkillFiles({ "crlf/SKILL.md": { text: md } });
    const { client, skills: api } = await host([skills({ skills: [definition], load })]);
    await api.list();
    const read = await api.read("skill://crlf/SKILL.md");
    expect(read).toMatchObject({ verified: true, body: "Body\r\n", frontmatter: definition.frontmatter });
    expect(Buffer.from(read.bytes).equals(Buffer.from(md))).toBe(true);
    await client.close();
  });
});
