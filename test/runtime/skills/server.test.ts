/**
 * The Skills extension on the server (extensions/skills, SEP-2640): declared with `resources`, `skills/list`
 * paginated with cache hints, `skills/get` (-32602 for an unknown URI), each file through `resources/read`,
 * `resources/directory/read` only with `directoryRead`, dynamic skills from code, and a file whose bytes no longer
 * match its recorded digest refused. Digests here are computed with node:crypto, independently of the runtime.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { builtinRevisions, createMemoryTransportPair, McpClient, McpServer, RpcError } from "../../../runtime/index.ts";
import { extension } from "../../../runtime/generated/extensions/skills/extension.ts";
import { embeddedSkillFiles, skills, type SkillDefinition, type SkillsOptions } from "../../../runtime/skills/index.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const SKILL_MD = "---\nname: refunds\ndescription: Process refunds\nlicense: MIT\n---\n\n# Refunds\n";
const EMAIL = "Dear customer,\n";
const FILES: Record<string, string> = {
  "acme/refunds/SKILL.md": SKILL_MD,
  "acme/refunds/examples/email.md": EMAIL,
  "acme/refunds/examples/deep/x.txt": "x",
};
const REFUNDS: SkillDefinition = {
  path: "acme/refunds",
  frontmatter: { name: "refunds", description: "Process refunds", license: "MIT" },
  files: Object.entries(FILES).map(([key, text]) => ({
    path: key.slice("acme/refunds/".length),
    sha256: sha(text),
    size: Buffer.byteLength(text),
  })),
};

async function connect(options: Partial<SkillsOptions> = {}, version = "2026-07-28") {
  const server = new McpServer({
    revisions: builtinRevisions,
    info: { name: "skills-server", version: "1" },
    extensions: [skills({ skills: [REFUNDS], load: embeddedSkillFiles(textFiles(FILES)), ...options })],
  });
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    info: { name: "c", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === version),
    extensions: [extension],
  });
  await client.connect(a);
  return client;
}

function textFiles(files: Record<string, string>) {
  return Object.fromEntries(Object.entries(files).map(([k, text]) => [k, { text }]));
}

const call = (client: McpClient, method: string, params: Record<string, unknown>) =>
  client.request(method, params) as Promise<Record<string, unknown>>;

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

const OTHER: SkillDefinition = {
  path: "git-flow",
  frontmatter: { name: "git-flow", description: "Branching" },
  files: [{ path: "SKILL.md", sha256: sha("g"), size: 1 }],
};

describe("skills server", () => {
  it("declares the extension and resources, lists and gets the entry with digests", async () => {
    const client = await connect();
    expect(client.serverCapabilities["extensions"]).toEqual({ [extension.id]: {} });
    expect(client.serverCapabilities["resources"]).toEqual({});
    const list = await client.request(extension.methods["skills/list"], {});
    const entry = {
      uri: "skill://acme/refunds/SKILL.md",
      frontmatter: { name: "refunds", description: "Process refunds", license: "MIT" },
      resources: [
        { uri: "skill://acme/refunds/SKILL.md", digest: `sha256:${sha(SKILL_MD)}`, size: Buffer.byteLength(SKILL_MD) },
        { uri: "skill://acme/refunds/examples/email.md", digest: `sha256:${sha(EMAIL)}`, size: 15 },
        { uri: "skill://acme/refunds/examples/deep/x.txt", digest: `sha256:${sha("x")}`, size: 1 },
      ],
    };
    expect(list.skills).toEqual([entry]);
    expect(list.cacheScope).toBe("public");
    expect(typeof list.ttlMs).toBe("number");
    const got = await client.request(extension.methods["skills/get"], { uri: entry.uri });
    expect(got.skill).toEqual(entry);
    await client.close();
  });

  it("answers -32602 for a skills/get of a URI that is no served skill", async () => {
    const client = await connect();
    const error = await rpcError(call(client, "skills/get", { uri: "skill://acme/refunds/examples/email.md" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("No skill is served at skill://acme/refunds/examples/email.md");
    await client.close();
  });

  it("pages skills/list and carries the configured cache hints", async () => {
    const client = await connect({
      skills: [REFUNDS, OTHER],
      load: embeddedSkillFiles({ ...textFiles(FILES), "git-flow/SKILL.md": { text: "g" } }),
      pageSize: 1,
      cache: { ttlMs: 60_000, scope: "private" },
    });
    const first = await call(client, "skills/list", {});
    expect((first["skills"] as { uri: string }[]).map((s) => s.uri)).toEqual(["skill://acme/refunds/SKILL.md"]);
    expect(first).toMatchObject({ ttlMs: 60_000, cacheScope: "private" });
    const second = await call(client, "skills/list", { cursor: first["nextCursor"] });
    expect((second["skills"] as { uri: string }[]).map((s) => s.uri)).toEqual(["skill://git-flow/SKILL.md"]);
    expect(second["nextCursor"]).toBeUndefined();
    await client.close();
  });

  it("serves every file through resources/read with its bytes", async () => {
    const client = await connect();
    const read = await call(client, "resources/read", { uri: "skill://acme/refunds/SKILL.md" });
    expect(read["contents"]).toEqual([
      { uri: "skill://acme/refunds/SKILL.md", mimeType: "text/markdown", text: SKILL_MD },
    ]);
    const missing = await rpcError(call(client, "resources/read", { uri: "skill://acme/refunds/nope.md" }));
    expect(missing.code).toBe(-32602);
    await client.close();
  });

  it("lists each SKILL.md in resources/list, named and described by its frontmatter, after registered resources", async () => {
    const server = new McpServer({
      revisions: builtinRevisions,
      info: { name: "skills-server", version: "1" },
      extensions: [skills({ skills: [REFUNDS], load: embeddedSkillFiles(textFiles(FILES)) })],
    });
    server.resource({ uri: "test://plain", name: "plain" }, () => ({ contents: [] }));
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({ info: { name: "c", version: "1" }, revisions: builtinRevisions });
    await client.connect(a);
    const list = await call(client, "resources/list", {});
    expect(list["resources"]).toEqual([
      { uri: "test://plain", name: "plain" },
      {
        uri: "skill://acme/refunds/SKILL.md",
        name: "refunds",
        description: "Process refunds",
        mimeType: "text/markdown",
        size: Buffer.byteLength(SKILL_MD),
      },
    ]);
    await client.close();
  });

  it("refuses to serve a file whose bytes no longer match its recorded digest (-32603)", async () => {
    const stale = { ...FILES, "acme/refunds/examples/email.md": "Dear customer!\n" };
    const client = await connect({ load: embeddedSkillFiles(textFiles(stale)) });
    const error = await rpcError(call(client, "resources/read", { uri: "skill://acme/refunds/examples/email.md" }));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("skill://acme/refunds/examples/email.md is not the content its entry describes");
    await client.close();
  });

  it("serves resources/directory/read only with directoryRead", async () => {
    const off = await connect();
    const unknown = await rpcError(call(off, "resources/directory/read", { uri: "skill://acme/refunds" }));
    expect(unknown.code).toBe(-32601);
    await off.close();
    const client = await connect({ directoryRead: true });
    expect(client.serverCapabilities["extensions"]).toEqual({ [extension.id]: { directoryRead: true } });
    const root = await call(client, "resources/directory/read", { uri: "skill://acme/refunds" });
    expect(root["resources"]).toEqual([
      {
        uri: "skill://acme/refunds/SKILL.md",
        name: "refunds",
        description: "Process refunds",
        mimeType: "text/markdown",
        size: Buffer.byteLength(SKILL_MD),
      },
      { uri: "skill://acme/refunds/examples", name: "examples", mimeType: "inode/directory" },
    ]);
    const examples = await call(client, "resources/directory/read", { uri: "skill://acme/refunds/examples" });
    expect((examples["resources"] as { uri: string }[]).map((r) => r.uri)).toEqual([
      "skill://acme/refunds/examples/deep",
      "skill://acme/refunds/examples/email.md",
    ]);
    for (const uri of ["skill://acme/refunds/SKILL.md", "skill://acme", "skill://nothing"]) {
      const error = await rpcError(call(client, "resources/directory/read", { uri }));
      expect(error.code).toBe(-32602);
    }
    await client.close();
  });

  it('serves a dynamic skill from code, with resources "dynamic"', async () => {
    const daily: SkillDefinition = {
      path: "reports/daily",
      frontmatter: { name: "daily", description: "Today's report" },
      resources: "dynamic",
      read: (file) => (file === "SKILL.md" ? "---\nname: daily\ndescription: Today's report\n---\n" : undefined),
      files: () => ["SKILL.md", "data/today.csv"],
    };
    const client = await connect({ skills: [daily], directoryRead: true });
    const list = await call(client, "skills/list", {});
    expect(list["skills"]).toEqual([
      {
        uri: "skill://reports/daily/SKILL.md",
        frontmatter: { name: "daily", description: "Today's report" },
        resources: "dynamic",
      },
    ]);
    const read = await call(client, "resources/read", { uri: "skill://reports/daily/SKILL.md" });
    expect((read["contents"] as { text: string }[])[0]!.text).toContain("name: daily");
    const dir = await call(client, "resources/directory/read", { uri: "skill://reports/daily" });
    expect((dir["resources"] as { uri: string; mimeType: string }[]).map((r) => [r.uri, r.mimeType])).toEqual([
      ["skill://reports/daily/SKILL.md", "text/markdown"],
      ["skill://reports/daily/data", "inode/directory"],
    ]);
    await client.close();
  });

  it("refuses skill definitions that break the page's rules, every problem at once", () => {
    expect(() =>
      skills({
        skills: [
          { ...OTHER, path: "git-flow/../x" },
          { ...OTHER, frontmatter: { name: "other", description: "d" } },
          { ...OTHER, path: "Bad_Name", frontmatter: { name: "Bad_Name", description: "d" } },
        ],
        load: () => "",
      }),
    ).toThrow(
      new Error(
        "invalid skills:\n" +
          'skill path "git-flow/../x" must be /-separated segments, none empty, "." or ".."\n' +
          'skill git-flow/../x: the last path segment must equal its name "git-flow"\n' +
          'skill git-flow: the last path segment must equal its name "other"\n' +
          'skill Bad_Name: name "Bad_Name" must be 1-64 lowercase letters, digits and single hyphens',
      ),
    );
  });
});
