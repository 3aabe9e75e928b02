/**
 * Handshake era, `resources/subscribe` under abuse (issue 34 item 5): a URI that names no registered resource and
 * matches no template is answered resource-not-found (-32002, `data.uri`; the resources page's error), and one
 * session holds at most `maxSubscriptionsPerSession` subscriptions (default 1,000): one more is answered -31431
 * with `data.limit`, while re-subscribing a held URI and subscribing after an unsubscribe still work.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  SUPPORTED_REVISIONS,
  type ServerExtension,
  type ServerOptions,
} from "../../../runtime/index.ts";
import { getProfile } from "../builtin-lookup.ts";
import { createDemoServer } from "../fixtures/demo-server.ts";

const HANDSHAKE = SUPPORTED_REVISIONS.filter((r) => getProfile(r)!.era === "handshake");

async function connect(server: McpServer, revision: string) {
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    info: { name: "subscriber", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
  });
  await client.connect(a);
  const updated: string[] = [];
  client.on("notifications/resources/updated", (params) => void updated.push((params as { uri: string }).uri));
  return { client, updated };
}

/** Resolves once `updated` holds `count` URIs (each notification is awaited, never a fixed sleep). */
async function updates(updated: string[], count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (updated.length < count && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  return updated;
}

describe.each(HANDSHAKE)("resources/subscribe at %s", (revision) => {
  it("answers -32002 with data.uri for a URI no resource or template serves, and subscribes served ones", async () => {
    const { client } = await connect(createDemoServer(), revision);
    for (const uri of ["demo://nothing", "demo://items", "other://readme", "demo://readme/x"]) {
      await expect(client.subscribeResource(uri)).rejects.toMatchObject({ code: -32002, data: { uri } });
    }
    await client.subscribeResource("demo://readme"); // a registered resource
    await client.subscribeResource("demo://items/7"); // a template's match
    await client.close();
  });

  it("holds at most maxSubscriptionsPerSession subscriptions: one more is -31431 with data.limit", async () => {
    const server = createDemoServer({ maxSubscriptionsPerSession: 3 });
    const { client, updated } = await connect(server, revision);
    for (const id of [1, 2, 3]) await client.subscribeResource(`demo://items/${id}`);
    await expect(client.subscribeResource("demo://items/4")).rejects.toMatchObject({
      code: -31431,
      message: expect.stringContaining("at most 3"),
      data: { limit: 3 },
    });
    await client.subscribeResource("demo://items/2"); // already held: not one more
    await client.unsubscribeResource("demo://items/1");
    await client.subscribeResource("demo://items/4");
    await expect(client.subscribeResource("demo://readme")).rejects.toMatchObject({ code: -31431 });
    // What the session holds is what it was told it holds: 2, 3 and 4, not the refused ones nor the one it left.
    for (const uri of ["demo://items/1", "demo://readme", "demo://items/2", "demo://items/3", "demo://items/4"])
      server.notifyResourceUpdated(uri);
    expect(await updates(updated, 3)).toEqual(["demo://items/2", "demo://items/3", "demo://items/4"]);
    await client.close();
  });
});

describe("resources/subscribe flood (handshake era)", () => {
  it("a session's 5,000 subscriptions of distinct URIs keep 1,000 (the default), each beyond refused", async () => {
    const server = createDemoServer();
    const { client, updated } = await connect(server, "2025-11-25");
    const outcomes = await Promise.all(
      Array.from({ length: 5_000 }, (_, i) =>
        client.subscribeResource(`demo://items/${i}`).then(
          () => "ok",
          (error: unknown) => (error as { code?: number; data?: unknown }).code === -31431 && "refused",
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1_000);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(4_000);
    // The session holds exactly the first 1,000 it acknowledged (requests are served in order).
    for (let i = 0; i < 5_000; i++) server.notifyResourceUpdated(`demo://items/${i}`);
    // Then a marker: notifications arrive in order, so once it is heard every update before it was.
    await client.unsubscribeResource("demo://items/0");
    await client.subscribeResource("demo://readme");
    server.notifyResourceUpdated("demo://readme");
    const heard = await updates(updated, 1_001);
    expect(heard.at(-1)).toBe("demo://readme");
    expect(heard.slice(0, -1)).toEqual(Array.from({ length: 1_000 }, (_, i) => `demo://items/${i}`));
    await client.close();
  });
});

describe("what resources/subscribe accepts", () => {
  it("a URI an extension's feature serves (servesResource), and refuses a bad maxSubscriptionsPerSession", async () => {
    const feature: ServerExtension = {
      id: "com.example/files",
      methods: [],
      serve: () => ({
        servesResource: (uri) => uri === "files://a",
        readResource: (uri) => (uri === "files://a" ? { contents: [{ uri, text: "a" }] } : undefined),
      }),
    };
    const server = createDemoServer({ extensions: [feature] });
    const { client } = await connect(server, "2025-11-25");
    await client.subscribeResource("files://a");
    await expect(client.subscribeResource("files://b")).rejects.toMatchObject({ code: -32002 });
    await client.close();
    const base: ServerOptions = { info: { name: "s", version: "1" }, revisions: builtinRevisions };
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new McpServer({ ...base, maxSubscriptionsPerSession: bad })).toThrow(/maxSubscriptionsPerSession/);
    expect(new McpServer(base).maxSubscriptionsPerSession).toBe(1_000);
  });
});
