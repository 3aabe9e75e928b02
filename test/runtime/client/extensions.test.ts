/**
 * Extension methods on the client (basic/versioning.mdx#extension-negotiation): methods outside the revision's table
 * are sent and received, typed by their tokens, once both sides declared the extension in
 * `capabilities.extensions`; otherwise they are refused locally, before anything reaches the server. Tested against
 * the runtime server's extension support in both eras, and against an official SDK v2 server's custom method.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolNotificationType,
  ProtocolRequestType,
  ProtocolUsageError,
  RpcError,
  type ServerSession,
} from "../../../runtime/index.ts";
import { JsonRpcEngine } from "../../../runtime/advanced.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/index.ts";
import { serve } from "../../../runtime/http/server/node.ts";
import { killPeers, startFixture } from "./peers.ts";

const EXT = "com.example/echo";

const echo = new ProtocolRequestType({
  method: "echo/say",
  direction: "clientToServer",
  params: z.object({ text: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }),
  result: z.looseObject({ echoed: z.string() }),
  paramsOptional: false,
  delivery: "message",
  resultType: false,
  cacheable: false,
  inputRequired: false,
});

const heard = new ProtocolNotificationType({
  method: "notifications/echo/heard",
  direction: "serverToClient",
  params: z.object({ count: z.number() }),
  paramsOptional: false,
});

interface Setup {
  readonly revision: string;
  readonly clientDeclares: boolean;
  readonly serverDeclares: boolean;
  readonly onDiagnostic?: (message: string) => void;
}

async function connect(setup: Setup) {
  const calls: string[] = [];
  const server = new McpServer({
    revisions: builtinRevisions,
    info: { name: "ext-server", version: "1" },
    ...(setup.serverDeclares ? { extensions: [{ id: EXT, settings: { loud: true }, methods: [echo, heard] }] } : {}),
  });
  if (setup.serverDeclares) {
    server.setRequestHandler(echo, ({ text }) => {
      calls.push(text);
      return { echoed: text.toUpperCase() };
    });
  }
  const [a, b] = createMemoryTransportPair();
  const session: ServerSession = await server.connect(b);
  const client = new McpClient({
    info: { name: "ext-client", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === setup.revision),
    ...(setup.clientDeclares ? { extensions: [{ id: EXT, methods: [echo, heard] }] } : {}),
    ...(setup.onDiagnostic ? { onDiagnostic: setup.onDiagnostic } : {}),
  });
  await client.connect(a);
  return { client, session, calls };
}

describe.each(["2025-11-25", "2026-07-28"])("extension methods, %s", (revision) => {
  it("calls an extension method both sides declared, typed by its token", async () => {
    const { client, calls } = await connect({ revision, clientDeclares: true, serverDeclares: true });
    expect(client.capabilities).toEqual({ extensions: { [EXT]: {} } });
    expect(client.serverCapabilities["extensions"]).toEqual({ [EXT]: { loud: true } });
    const result = await client.request(echo, { text: "hi" });
    expectTypeOf(result).toEqualTypeOf<{ [key: string]: unknown; echoed: string }>();
    expect(result.echoed).toBe("HI");
    expect(calls).toEqual(["hi"]);
    await client.close();
  });

  it("refuses an extension method locally when the client did not declare the extension", async () => {
    const { client, calls } = await connect({ revision, clientDeclares: false, serverDeclares: true });
    await expect(client.request(echo, { text: "hi" })).rejects.toThrow(
      new ProtocolUsageError(`echo/say is not a client request in revision ${revision} nor in a negotiated extension`),
    );
    expect(calls).toEqual([]);
    await client.close();
  });

  it("refuses an extension method locally when the server did not negotiate the extension", async () => {
    const { client } = await connect({ revision, clientDeclares: true, serverDeclares: false });
    await expect(client.request(echo, { text: "hi" })).rejects.toThrow(
      new ProtocolUsageError(
        `echo/say is not a client request in revision ${revision} (extension ${EXT} declares it, but the server did not negotiate that extension)`,
      ),
    );
    await client.close();
  });
});

describe("extension notifications (handshake era: the server sends them on the session)", () => {
  it("delivers a negotiated extension's notification to a listener typed by its token", async () => {
    const { client, session } = await connect({ revision: "2025-11-25", clientDeclares: true, serverDeclares: true });
    const counts: number[] = [];
    client.on(heard, (params) => {
      expectTypeOf(params).toEqualTypeOf<{ count: number }>();
      counts.push(params.count);
    });
    await session.notify(heard, { count: 3 });
    await expect.poll(() => counts).toEqual([3]);
    await client.close();
  });

  it("drops an extension notification whose params do not match its token", async () => {
    const diagnostics: string[] = [];
    const onDiagnostic = (message: string) => diagnostics.push(message);
    const { client, session } = await connect({
      revision: "2025-11-25",
      clientDeclares: true,
      serverDeclares: true,
      onDiagnostic,
    });
    const counts: unknown[] = [];
    client.on(heard, (params) => counts.push(params));
    const unchecked = session as unknown as { notify(method: string, params: unknown): Promise<void> };
    await unchecked.notify("notifications/echo/heard", { count: "three" });
    await session.notify(heard, { count: 4 });
    await expect.poll(() => counts).toEqual([{ count: 4 }]);
    expect(diagnostics).toEqual(["ignored an invalid notifications/echo/heard notification"]);
    await client.close();
  });
});

describe("declaring extensions", () => {
  it("takes a method table (what `mcp-gen protocol` generates) as well as a list of tokens", async () => {
    const server = new McpServer({
      revisions: builtinRevisions,
      info: { name: "s", version: "1" },
      extensions: [{ id: EXT, methods: [echo] }],
    });
    server.setRequestHandler(echo, ({ text }) => ({ echoed: text }));
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "c", version: "1" },
      extensions: [{ id: EXT, methods: { "echo/say": echo } }],
    });
    await client.connect(a);
    expect(await client.request(echo, { text: "table" })).toMatchObject({ echoed: "table" });
    await client.close();
  });

  it("refuses two extensions declaring the same method", () => {
    expect(
      () =>
        new McpClient({
          revisions: builtinRevisions,
          info: { name: "c", version: "1" },
          extensions: [
            { id: "com.example/a", methods: [echo] },
            { id: "com.example/b", methods: [echo] },
          ],
        }),
    ).toThrow("extension method echo/say is declared by both com.example/a and com.example/b");
  });
});

describe("against an official SDK v2 server (2026-07-28) serving a custom method of a declared extension", () => {
  const fixture = fileURLToPath(new URL("./fixtures/sdk-v2-http-server.ts", import.meta.url));
  afterEach(killPeers);

  it("calls it once both sides declared the extension, and refuses it locally otherwise", async () => {
    const url = await startFixture(fixture, "--extension", EXT);
    const declaring = new McpClient({
      revisions: builtinRevisions,
      info: { name: "ext-client", version: "1" },
      extensions: [{ id: EXT, methods: [echo] }],
    });
    await declaring.connect(new StreamableHttpClientTransport(url));
    expect(declaring.revision).toBe("2026-07-28");
    expect(await declaring.request(echo, { text: "hi" })).toMatchObject({ echoed: "v2:hi" });
    await declaring.close();
    const plain = new McpClient({ revisions: builtinRevisions, info: { name: "plain-client", version: "1" } });
    await plain.connect(new StreamableHttpClientTransport(url));
    await expect(plain.request(echo, { text: "hi" })).rejects.toBeInstanceOf(ProtocolUsageError);
    await plain.close();
  });
});

describe("server→client requests of an extension (handshake era)", () => {
  const ask = new ProtocolRequestType({
    method: "echo/ask",
    direction: "serverToClient",
    params: z.object({ question: z.string() }),
    result: z.looseObject({ answer: z.string() }),
    paramsOptional: false,
    delivery: "message",
    resultType: false,
    cacheable: false,
    inputRequired: false,
  });

  /** A raw server that declares (or not) the extension, then asks the client `echo/ask` once initialized. */
  async function rawServer(declares: boolean) {
    const [a, b] = createMemoryTransportPair();
    let initialized!: () => void;
    const ready = new Promise<void>((resolve) => (initialized = resolve));
    const server = new JsonRpcEngine(b, {
      onRequest: (request) => {
        if (request.method !== "initialize") throw new RpcError(-32601, "Method not found");
        const capabilities = declares ? { extensions: { [EXT]: {} } } : {};
        return { protocolVersion: "2025-11-25", capabilities, serverInfo: { name: "raw", version: "1" } };
      },
      onNotification: (method) => method === "notifications/initialized" && initialized(),
    });
    await server.start();
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      extensions: [{ id: EXT, methods: [ask] }],
    });
    client.handle(ask, (params) => {
      expectTypeOf(params).toEqualTypeOf<{ question: string }>();
      return { answer: `yes to ${params.question}` };
    });
    await client.connect(a);
    await ready;
    return { client, server };
  }

  it("answers it with the handler registered by its token once the extension is negotiated", async () => {
    const { client, server } = await rawServer(true);
    expect(await server.request("echo/ask", { question: "tea" })).toEqual({ answer: "yes to tea" });
    await expect(server.request("echo/ask", { question: 1 })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("answers -32601 when the server did not negotiate the extension", async () => {
    const { client, server } = await rawServer(false);
    await expect(server.request("echo/ask", { question: "tea" })).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });
});

describe.each(["2025-11-25", "2026-07-28"])(
  "extension methods over Streamable HTTP against the runtime server, %s",
  (revision) => {
    it("calls a negotiated extension's method through the era's HTTP rules", async () => {
      const server = new McpServer({
        revisions: builtinRevisions,
        info: { name: "ext-http", version: "1" },
        extensions: [{ id: EXT, methods: [echo] }],
      });
      server.setRequestHandler(echo, ({ text }) => ({ echoed: `http:${text}` }));
      const running = await serve(server);
      try {
        const client = new McpClient({
          info: { name: "c", version: "1" },
          revisions: builtinRevisions.filter((r) => r.version === revision),
          extensions: [{ id: EXT, methods: [echo] }],
        });
        await client.connect(new StreamableHttpClientTransport(running.url));
        expect(client.era).toBe(revision === "2026-07-28" ? "stateless" : "handshake");
        expect(await client.request(echo, { text: "x" })).toMatchObject({ echoed: "http:x" });
        await client.close();
      } finally {
        await running.close();
      }
    });
  },
);
