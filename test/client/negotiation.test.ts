/**
 * Negotiation over HTTP with default options against real official-SDK v1 servers (separate processes): the
 * `server/discover` probe is answered by each in its own way (400 with a non-modern body, 405, 404), and the spec's
 * Streamable HTTP backward-compatibility rules say every one of those means "legacy: fall back to initialize"
 * (and, for the old HTTP+SSE transport, to that transport).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient, StdioClientTransport } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/sdk-v1-http-server.ts", import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

async function startV1(mode: string): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, mode], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`SDK v1 ${mode} server exited with ${code} before listening`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe.each(["stateful", "stateless", "sse"])("default McpClient → official SDK v1 %s HTTP server", (mode) => {
  it("falls back from the server/discover probe to initialize and calls a tool", async () => {
    const url = await startV1(mode);
    const client = new McpClient({ info: { name: "negotiation-test", version: "1.0.0" } });
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
    const client = new McpClient({ info: { name: "negotiation-test", version: "1.0.0" } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", ODD, "empty-result"] }));
    try {
      expect(client.revision).toBe("2025-06-18");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["t"]);
    } finally {
      await client.close();
    }
  });

  it("after a probe timeout, recognises a modern server by its -32022 answer to initialize and probes again", async () => {
    const client = new McpClient({ info: { name: "negotiation-test", version: "1.0.0" }, probeTimeoutMs: 100 });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", ODD, "slow-modern"] }));
    try {
      expect(client.revision).toBe("2026-07-28");
      expect(client.serverInfo).toMatchObject({ name: "odd-slow-modern" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["modern"]);
    } finally {
      await client.close();
    }
  });
});
