/**
 * The runtime's client with default options against real official peers in separate processes: server-everything
 * over stdio, Streamable HTTP and the old HTTP+SSE transport, and an SDK v2 server over HTTP (2026-07-28). The
 * client picks the revision itself every time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient, StdioClientTransport, type Transport } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";

const require = createRequire(import.meta.url);
const everythingPkg = require.resolve("@modelcontextprotocol/server-everything/package.json");
const EVERYTHING = join(dirname(everythingPkg), (Object.values((require(everythingPkg) as { bin: Record<string, string> }).bin)[0])!);
const V2_SERVER = fileURLToPath(new URL("./fixtures/sdk-v2-http-server.ts", import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts a child and resolves once `pattern` appears on its stdout or stderr. */
function start(args: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<RegExpExecArray> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    const look = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = pattern.exec(seen);
      if (match) resolve(match);
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${seen}`)));
  });
}

async function everythingOverHttp(mode: "streamableHttp" | "sse"): Promise<string> {
  const port = await freePort();
  await start([EVERYTHING, mode], /(listening|running) on port/i, { PORT: String(port) });
  return mode === "sse" ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
}

async function exercise(transport: Transport, expected: { revision: string; tool: string; args: Record<string, unknown>; text: string }) {
  const client = new McpClient({ info: { name: "peer-test", version: "1.0.0" } });
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
    await exercise(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "pipe" }), { revision: "2025-11-25", ...ECHO });
  });

  it("server-everything over Streamable HTTP", async () => {
    await exercise(new StreamableHttpClientTransport(await everythingOverHttp("streamableHttp")), { revision: "2025-11-25", ...ECHO });
  });

  it("server-everything over the 2024-11-05 HTTP+SSE transport", async () => {
    await exercise(new StreamableHttpClientTransport(await everythingOverHttp("sse")), { revision: "2025-11-25", ...ECHO });
  });

  it("an SDK v2 server over HTTP speaks 2026-07-28", async () => {
    const [, port] = await start(["--import", "tsx", V2_SERVER], /listening (\d+)/);
    await exercise(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`), { revision: "2026-07-28", tool: "echo", args: { text: "v2" }, text: "echo:v2" });
  });
});
