/**
 * The runtime's client with default options against real official peers in separate processes: server-everything
 * over stdio, Streamable HTTP and the old HTTP+SSE transport, and an SDK v2 server over HTTP (2026-07-28). The
 * client picks the revision itself every time.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, type Transport } from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/index.ts";
import { killPeers, startFixture, startPeer } from "./peers.ts";
import { onFreePort } from "../../free-port.ts";

const require = createRequire(import.meta.url);
const everythingPkg = require.resolve("@modelcontextprotocol/server-everything/package.json");
const EVERYTHING = join(
  dirname(everythingPkg),
  Object.values((require(everythingPkg) as { bin: Record<string, string> }).bin)[0]!,
);
const V2_SERVER = fileURLToPath(new URL("./fixtures/sdk-v2-http-server.ts", import.meta.url));

afterEach(killPeers);

/** server-everything over HTTP on a free port (another one when it was taken before the server bound it). */
function everythingOverHttp(mode: "streamableHttp" | "sse"): Promise<string> {
  return onFreePort(async (port) => {
    await startPeer([EVERYTHING, mode], /(listening|running) on port/i, { PORT: String(port) });
    return mode === "sse" ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
  });
}

async function exercise(
  transport: Transport,
  expected: { revision: string; tool: string; args: Record<string, unknown>; text: string },
) {
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "peer-test", version: "1.0.0" } });
  await client.connect(transport);
  try {
    expect(client.revision).toBe(expected.revision);
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toContain(expected.tool);
    const result = await client.callTool(expected.tool, expected.args);
    expect(JSON.stringify(result.content)).toContain(expected.text);
  } finally {
    await client.close();
  }
}

const ECHO = { tool: "echo", args: { message: "peer" }, text: "Echo: peer" };

describe("default McpClient ↔ official peers", () => {
  it("server-everything over stdio", async () => {
    await exercise(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "pipe" }),
      { revision: "2025-11-25", ...ECHO },
    );
  });

  it("server-everything over Streamable HTTP", async () => {
    await exercise(new StreamableHttpClientTransport(await everythingOverHttp("streamableHttp")), {
      revision: "2025-11-25",
      ...ECHO,
    });
  });

  it("server-everything over the 2024-11-05 HTTP+SSE transport", async () => {
    await exercise(new StreamableHttpClientTransport(await everythingOverHttp("sse")), {
      revision: "2025-11-25",
      ...ECHO,
    });
  });

  it("an SDK v2 server over HTTP speaks 2026-07-28", async () => {
    await exercise(new StreamableHttpClientTransport(await startFixture(V2_SERVER)), {
      revision: "2026-07-28",
      tool: "echo",
      args: { text: "v2" },
      text: "echo:v2",
    });
  });
});
