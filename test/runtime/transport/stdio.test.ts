/** End-to-end over real processes: our client ↔ our server on stdio, for every revision. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  builtinRevisions,
  ConnectionClosedError,
  McpClient,
  RequestCancelledError,
  RequestTimeoutError,
  SUPPORTED_REVISIONS,
} from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { LineDecoder } from "../../../runtime/jsonrpc/framing.ts";
import { getProfile } from "../builtin-lookup.ts";
import { nodeArgs } from "../../fixture-run.ts";

const SERVER = fileURLToPath(new URL("../fixtures/stdio-server.ts", import.meta.url));
const NODE_ARGS = nodeArgs(SERVER);
const clients: McpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function transport(serverRevisions?: string, stderr: string[] = []) {
  return new StdioClientTransport({
    command: process.execPath,
    args: serverRevisions ? [...NODE_ARGS, serverRevisions] : NODE_ARGS,
    stderr: "pipe",
    onStderr: (text) => stderr.push(text),
  });
}

describe.each(SUPPORTED_REVISIONS)("stdio, revision %s", (revision) => {
  it("serves a full session: calls, progress, cancellation, timeouts, input from the client", async () => {
    const client = new McpClient({
      info: { name: "e2e", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
      handlers: {
        elicitation: () => ({ action: "accept", content: { name: "Ada", city: "Oslo" } }),
        sampling: () => ({ role: "assistant", content: { type: "text", text: "s" }, model: "m" }),
        roots: () => ({ roots: [{ uri: "file:///r" }] }),
      },
    });
    clients.push(client);
    await client.connect(transport());
    expect(client.revision).toBe(revision);
    expect((await client.callTool("add", { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });

    const progress: number[] = [];
    await client.callTool("slow", { steps: 3, stepMs: 5 }, { onProgress: (u) => progress.push(u.progress) });
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const cancelled = client.callTool("slow", { steps: 100, stepMs: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(cancelled).rejects.toBeInstanceOf(RequestCancelledError);

    await expect(client.callTool("slow", { steps: 100, stepMs: 10 }, { timeoutMs: 60 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    // The whole call (3 × 1,200 ms) outlasts the 3,200 ms timeout, so only the resets keep it alive; each gap between
    // progress updates leaves 2 s to spare for an event-loop stall on a loaded machine (500 ms, at 300 ms steps
    // against 800 ms, is less than a vitest worker at load 20+ can stall).
    const reset = await client.callTool(
      "slow",
      { steps: 3, stepMs: 1200 },
      { timeoutMs: 3200, resetTimeoutOnProgress: true, onProgress: () => undefined },
    );
    expect(reset.content[0]).toMatchObject({ text: "done 3" });

    // Server→client input: JSON-RPC requests in the handshake era, an MRTR round trip in the stateless era.
    const both = await client.callTool("sample-and-roots", {});
    expect(both.content[0]).toMatchObject({ text: "s|file:///r" });
    if (getProfile(revision)!.methods["elicitation/create"]) {
      expect((await client.callTool("ask", {})).content[0]).toMatchObject({ text: "Ada from Oslo" });
    }
    expect((await client.readResource("demo://readme")).contents[0]).toMatchObject({ text: "hello" });
  });
});

describe("stdio robustness", () => {
  it("survives malformed input in the middle of a session", async () => {
    const child = spawn(process.execPath, NODE_ARGS, { stdio: ["pipe", "pipe", "pipe"] });
    const decoder = new LineDecoder();
    const replies: Array<Record<string, unknown>> = [];
    child.stdout.on("data", (chunk: Buffer) =>
      decoder.push(chunk).forEach((line) => replies.push(JSON.parse(line as string))),
    );
    // Up to 30 s: the replies wait for the server process to start, which took 5 s at load 14.
    const waitFor = async (count: number) => {
      for (let i = 0; i < 1200 && replies.length < count; i++) await new Promise((r) => setTimeout(r, 25));
      if (replies.length < count)
        throw new Error(`expected ${count} replies within 30 s, got ${JSON.stringify(replies)}`);
      return replies;
    };
    const send = (text: string) => child.stdin.write(text + "\n");
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    );
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send("this is not json");
    send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}');
    send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { arguments: {} } }));
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "add", arguments: { a: 1, b: 2 } },
      }),
    );
    // Five replies: initialize, two -32700 (the line that is not JSON, the truncated one), ids 3 and 4.
    const all = await waitFor(5);
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    expect(all).toHaveLength(5);
    expect(all.find((m) => m["id"] === 1)).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    expect(all.filter((m) => m["id"] === null).map((m) => (m["error"] as { code: number }).code)).toEqual([
      -32700, -32700,
    ]);
    expect(all.find((m) => m["id"] === 3)).toMatchObject({ error: { code: -32602 } });
    expect(all.find((m) => m["id"] === 4)).toMatchObject({ result: { structuredContent: { sum: 3 } } });
  });

  it("answers a last line without a trailing newline, and rejects ids beyond 2^53 instead of rounding them", async () => {
    const child = spawn(process.execPath, [...NODE_ARGS, "2026-07-28"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const call = (id: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${JSON.stringify({ name: "add", arguments: { a: 1, b: 2 }, _meta: meta })}}`;
    child.stdin.write(call("12345678901234567890") + "\n");
    child.stdin.write(call("9007199254740993") + "\n");
    child.stdin.write(call("9007199254740991") + "\n");
    child.stdin.end(call("7")); // no newline, then EOF
    await exited;
    const lines = out.split("\n").filter(Boolean);
    // Compare raw text: JSON.parse here would round ids just as the server must not.
    expect(lines.filter((l) => l.startsWith('{"jsonrpc":"2.0","id":null,"error":{"code":-32600'))).toHaveLength(2);
    expect(lines.some((l) => l.includes("12345678901234567") || l.includes("900719925474099" + "2"))).toBe(false);
    expect(lines.find((l) => l.startsWith('{"jsonrpc":"2.0","id":9007199254740991,"result"'))).toContain('"sum":3');
    expect(lines.find((l) => l.startsWith('{"jsonrpc":"2.0","id":7,"result"'))).toContain('"sum":3');
    expect(lines).toHaveLength(4);
  });

  it("fails pending requests with a clear error when the server dies", async () => {
    const stderr: string[] = [];
    const t = transport(undefined, stderr);
    const client = new McpClient({
      info: { name: "e2e", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-06-18"].includes(r.version)),
    });
    clients.push(client);
    await client.connect(t);
    const pending = client.callTool("slow", { steps: 1000, stepMs: 10 });
    await new Promise((r) => setTimeout(r, 50));
    process.kill(t.pid!, "SIGKILL");
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(pending).rejects.toThrow(/exited \(signal SIGKILL\)/);
  });

  /**
   * Connects a client to the strict 2025-06-18 fixture (it exits on any request before initialize), which reads
   * nothing for `holdMs` first; then checks the client restarted it, initialized and serves, and said why.
   */
  async function restartsStrictServer(holdMs: number, options: { probeTimeoutMs?: number } = {}): Promise<void> {
    const strict = fileURLToPath(new URL("../fixtures/strict-legacy-server.ts", import.meta.url));
    const diagnostics: string[] = [];
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "e2e", version: "1" },
      ...options,
      onDiagnostic: (m) => diagnostics.push(m),
    });
    clients.push(client);
    const args = [...nodeArgs(strict), ...(holdMs > 0 ? [String(holdMs)] : [])];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
    expect(client.revision).toBe("2025-06-18");
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["noop"]);
    expect(diagnostics.join("\n")).toMatch(/closed the connection on the server\/discover probe/);
  }

  it("restarts a handshake-era server that exits on the server/discover probe, then initializes", async () => {
    await restartsStrictServer(0);
  });

  it("restarts a slow-starting server that exits on the server/discover probe it reads after the probe timed out", async () => {
    // The server reads nothing for 1 s; the probe gives up at 100 ms and initialize goes out, so the server reads the
    // probe first (and exits) while initialize is pending. A CLI started through npx or tsx on a loaded machine
    // starts this slowly against the default 5 s probe timeout.
    await restartsStrictServer(1000, { probeTimeoutMs: 100 });
  });

  it("reports a command that cannot start", async () => {
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "e2e", version: "1" } });
    await expect(client.connect(new StdioClientTransport({ command: "/nonexistent/mcp-server" }))).rejects.toThrow(
      /cannot start MCP server/,
    );
  });
});
