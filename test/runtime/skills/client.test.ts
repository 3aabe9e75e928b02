/**
 * The Skills client (extensions/skills, host side) against the runtime's own Skills server as a process
 * (fixtures/skills-server.ts), over stdio and Streamable HTTP: entries listed and got, nothing read before `read`
 * asks, every read verified (size, digest, frontmatter), directory reads; and a server whose entries no longer
 * describe what it serves (one byte changed, a longer file, an unlisted file, a changed frontmatter field) refused
 * with `SkillVerificationError`, whose message names the file and the host's label of the server, never the content.
 * Expected entries are computed with node:crypto (fixtures/skill-files.ts), independently of the runtime.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, type Transport } from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/index.ts";
import { SkillVerificationError, skillsClient, skillsOf } from "../../../runtime/skills/index.ts";
import { nodeArgs } from "../../fixture-run.ts";
import { killPeers, startFixture } from "../client/peers.ts";
import { EMAIL, GIT_FLOW, REFUNDS, REFUNDS_MD } from "./fixtures/skill-files.ts";

const SERVER = fileURLToPath(new URL("./fixtures/skills-server.ts", import.meta.url));

afterEach(killPeers);

/** The methods a client sent, in order (its transport's `send`, recorded). */
function recorded(transport: Transport): string[] {
  const sent: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const method = (message as { method?: unknown }).method;
    if (typeof method === "string") sent.push(method);
    return send(message, options);
  };
  return sent;
}

const stdio = (...args: string[]) =>
  new StdioClientTransport({ command: process.execPath, args: [...nodeArgs(SERVER), ...args], stderr: "pipe" });
const http = async (...args: string[]) =>
  new StreamableHttpClientTransport(await startFixture(SERVER, "--http", ...args));

async function connected(transport: Transport, server = "docs-server") {
  const sent = recorded(transport);
  const client = new McpClient({
    revisions: builtinRevisions,
    info: { name: "skills-host", version: "1" },
    extensions: [skillsClient({ server })],
  });
  await client.connect(transport);
  return { client, skills: skillsOf(client), sent };
}

/** The rejection of `promise`, which must be a `SkillVerificationError`. */
async function refusal(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillVerificationError);
  return error as SkillVerificationError;
}

describe.each([
  ["stdio", async () => stdio()],
  ["Streamable HTTP", async () => http()],
])("skills client → our skills server over %s", (_, transport) => {
  it("lists and gets entries without reading a file, then reads and verifies each file", async () => {
    const { client, skills, sent } = await connected(await transport());
    try {
      expect(client.revision).toBe("2026-07-28");
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(true);
      const listing = await skills.list();
      expect(listing.skills).toEqual([REFUNDS, GIT_FLOW]);
      expect(listing.cacheScope).toBe("public");
      expect(await skills.get(GIT_FLOW.uri)).toEqual(GIT_FLOW);
      // No prefetching: listing and getting read no file.
      expect(sent).not.toContain("resources/read");
      const manifest = await skills.read(REFUNDS.uri);
      expect(manifest).toMatchObject({ uri: REFUNDS.uri, server: "docs-server", skill: REFUNDS.uri, verified: true });
      expect(manifest.text).toBe(REFUNDS_MD);
      expect(Buffer.from(manifest.bytes).toString("utf8")).toBe(REFUNDS_MD);
      expect(manifest.frontmatter).toEqual(REFUNDS.frontmatter);
      expect(manifest.body).toBe("\n# Refunds\n");
      const email = await skills.read("skill://acme/refunds/examples/email.md");
      expect(email).toMatchObject({ skill: REFUNDS.uri, verified: true, text: EMAIL, mimeType: "text/markdown" });
      expect(email.frontmatter).toBeUndefined();
      expect(sent.filter((m) => m === "resources/read")).toHaveLength(2);
      const children = await skills.readDirectory("skill://acme/refunds");
      expect(children.map((c) => [c.uri, c.mimeType])).toEqual([
        ["skill://acme/refunds/SKILL.md", "text/markdown"],
        ["skill://acme/refunds/examples", "inode/directory"],
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("skills client refuses what its held entry does not describe", () => {
  const cases = [
    { tamper: "byte", uri: "skill://acme/refunds/examples/email.md", reason: "digest", content: "Deer" },
    { tamper: "longer", uri: "skill://acme/refunds/examples/email.md", reason: "size", content: "P.S." },
    { tamper: "unlisted", uri: "skill://acme/refunds/examples/secret.md", reason: "unlisted", content: "not in any" },
    { tamper: "frontmatter", uri: "skill://acme/refunds/SKILL.md", reason: "frontmatter", content: "Apache" },
  ] as const;

  it.each(cases)("$tamper: refused with reason $reason, naming the file, never its content", async (c) => {
    const { client, skills, sent } = await connected(stdio("--tamper", c.tamper));
    try {
      await skills.list();
      const error = await refusal(skills.read(c.uri));
      expect(error.reason).toBe(c.reason);
      expect(error.uri).toBe(c.uri);
      expect(error.server).toBe("docs-server");
      expect(error.skill).toBe(c.tamper === "unlisted" ? undefined : REFUNDS.uri);
      expect(error.message).toContain(`skill file ${c.uri} from server docs-server failed verification`);
      expect(error.message).not.toContain(c.content);
      // An unlisted file is refused before any request; the others were read, then refused.
      expect(sent.filter((m) => m === "resources/read")).toHaveLength(c.tamper === "unlisted" ? 0 : 1);
      if (c.tamper === "frontmatter") expect(error.differences).toEqual(['"license": differs']);
      // The untampered files of the same server still verify.
      expect((await skills.read("skill://git-flow/SKILL.md")).verified).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("holds entries per server: a file another server's client listed is unlisted here", async () => {
    const first = await connected(stdio(), "first");
    const second = await connected(stdio(), "second");
    try {
      await first.skills.list();
      expect((await first.skills.read(REFUNDS.uri)).verified).toBe(true);
      const error = await refusal(second.skills.read(REFUNDS.uri));
      expect(error.reason).toBe("unlisted");
      expect(error.server).toBe("second");
      expect(second.sent).not.toContain("resources/read");
    } finally {
      await Promise.all([first.client.close(), second.client.close()]);
    }
  });
});
