/**
 * Negotiation over HTTP with default options against real official-SDK v1 servers (separate processes): the
 * `server/discover` probe is answered by each in its own way (400 with a non-modern body, 405, 404), and the spec's
 * Streamable HTTP backward-compatibility rules say every one of those means "legacy: fall back to initialize"
 * (and, for the old HTTP+SSE transport, to that transport).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/index.ts";
import { killPeers, startFixture } from "./peers.ts";
import { nodeArgs } from "../../fixture-run.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/sdk-v1-http-server.ts", import.meta.url));
afterEach(killPeers);

const startV1 = (mode: string) => startFixture(FIXTURE, mode);

describe.each(["stateful", "stateless", "sse"])("default McpClient → official SDK v1 %s HTTP server", (mode) => {
  it("falls back from the server/discover probe to initialize and calls a tool", async () => {
    const url = await startV1(mode);
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "negotiation-test", version: "1.0.0" } });
    await client.connect(new StreamableHttpClientTransport(url));
    try {
      // The v1 SDK speaks up to 2025-11-25; the handshake picks the newest revision both sides accept.
      expect(client.revision).toBe("2025-11-25");
      expect(client.serverInfo).toMatchObject({ name: `sdk-v1-${mode}`, version: "1.0.0" });
      const result = await client.callTool("echo", { text: "hi" });
      expect(result.content).toEqual([{ type: "text", text: "echo:hi" }]);
    } finally {
      await client.close();
    }
  });
});

const ODD = fileURLToPath(new URL("./fixtures/odd-stdio-server.ts", import.meta.url));

describe("default McpClient → servers that answer the probe oddly (stdio)", () => {
  it("treats a server/discover answer that is not a DiscoverResult as a legacy server", async () => {
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "negotiation-test", version: "1.0.0" } });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [...nodeArgs(ODD), "empty-result"] }),
    );
    try {
      expect(client.revision).toBe("2025-06-18");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["t"]);
    } finally {
      await client.close();
    }
  });

  it("after a probe timeout, recognises a modern server by its -32022 answer to initialize and probes again", async () => {
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "negotiation-test", version: "1.0.0" },
      probeTimeoutMs: 100,
    });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [...nodeArgs(ODD), "slow-modern"] }),
    );
    try {
      expect(client.revision).toBe("2026-07-28");
      expect(client.serverInfo).toMatchObject({ name: "odd-slow-modern" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["modern"]);
    } finally {
      await client.close();
    }
  });
});

const SLOW_START = fileURLToPath(new URL("./fixtures/slow-start-server.ts", import.meta.url));

/** The slow-start fixture: reads nothing for 1.5 s, and appends a line to `starts` at each start. */
const slowStart = (starts: string) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs(SLOW_START), "1500", starts],
    stderr: "ignore",
  });

describe("default McpClient → a stdio server that starts slowly", () => {
  it("says the probe went unanswered, and starts the server again for the stateless era when its answer comes late", async () => {
    const starts = join(mkdtempSync(join(tmpdir(), "mcp-slow-start-")), "starts");
    const diagnostics: string[] = [];
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "negotiation-test", version: "1.0.0" },
      probeTimeoutMs: 300,
      onDiagnostic: (message) => diagnostics.push(message),
    });
    // The server reads nothing for 1.5 s: the probe times out at 300 ms, initialize goes out, and the server then
    // answers both, server/discover first.
    await client.connect(slowStart(starts));
    try {
      expect(client.revision).toBe("2026-07-28");
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect(readFileSync(starts, "utf8")).toBe("start\nstart\n");
      expect(diagnostics.some((m) => m.includes("server/discover got no answer within 300 ms"))).toBe(true);
      expect(diagnostics.some((m) => m.includes("only after the 300 ms probe timeout; starting it again"))).toBe(true);
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe("a McpClient that speaks only the stateless era → a stdio server that starts slowly", () => {
  it("waits past probeTimeoutMs for server/discover instead of failing with no common revision", async () => {
    const starts = join(mkdtempSync(join(tmpdir(), "mcp-slow-start-")), "starts");
    const client = new McpClient({
      revisions: builtinRevisions.filter((r) => r.version === "2026-07-28"),
      info: { name: "negotiation-test", version: "1.0.0" },
      probeTimeoutMs: 300,
    });
    await client.connect(slowStart(starts));
    try {
      expect(client.revision).toBe("2026-07-28");
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect(readFileSync(starts, "utf8")).toBe("start\n");
    } finally {
      await client.close();
    }
  }, 90_000);
});

/** An in-process stateless-era HTTP server answering with `answer(method)` (real sockets, raw JSON-RPC). */
async function rawModernServer(
  answer: (method: string, id: unknown) => { status: number; body: unknown; delayMs?: number },
): Promise<{ url: string; close: () => void }> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const message = JSON.parse(text) as { id?: unknown; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const { status, body, delayMs = 0 } = answer(message.method, message.id);
      setTimeout(
        () => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)),
        delayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/mcp`, close: () => server.close() };
}

const DISCOVERED = {
  resultType: "complete",
  ttlMs: 0,
  cacheScope: "private",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
};

describe("default McpClient → stateless-era HTTP servers", () => {
  it("waits for a slow server/discover answer over HTTP instead of guessing 'legacy' after 5 s", async () => {
    const server = await rawModernServer((method, id) =>
      method === "server/discover"
        ? { status: 200, body: { jsonrpc: "2.0", id, result: DISCOVERED }, delayMs: 5_500 }
        : {
            status: 200,
            body: {
              jsonrpc: "2.0",
              id,
              result: { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] },
            },
          },
    );
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "negotiation-test", version: "1.0.0" } });
    try {
      await client.connect(new StreamableHttpClientTransport(server.url));
      expect(client.revision).toBe("2026-07-28");
      expect((await client.listTools()).tools).toEqual([]);
    } finally {
      await client.close();
      server.close();
    }
  });

  it("surfaces a modern refusal of the probe (-32020) instead of falling back to initialize", async () => {
    const methods: string[] = [];
    const server = await rawModernServer((method, id) => {
      methods.push(method);
      return {
        status: 400,
        body: { jsonrpc: "2.0", id, error: { code: -32020, message: "Mcp-Method header does not match" } },
      };
    });
    try {
      const client = new McpClient({
        revisions: builtinRevisions,
        info: { name: "negotiation-test", version: "1.0.0" },
      });
      await expect(client.connect(new StreamableHttpClientTransport(server.url))).rejects.toThrow(
        /refused server\/discover \(-32020\): Mcp-Method header/,
      );
      expect(methods).toEqual(["server/discover"]);
    } finally {
      server.close();
    }
  });
});
