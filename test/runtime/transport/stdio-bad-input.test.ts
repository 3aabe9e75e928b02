/**
 * Malformed input in the middle of a real stdio session, for every revision: raw lines to our server process, each
 * bad one answered with the right code, and the session still serving afterwards (and stdout carrying only JSON-RPC).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SUPPORTED_REVISIONS } from "../../../runtime/index.ts";
import { LineDecoder } from "../../../runtime/jsonrpc/framing.ts";
import { getProfile } from "../builtin-lookup.ts";
import { nodeArgs } from "../../fixture-run.ts";

const SERVER = fileURLToPath(new URL("../fixtures/stdio-server.ts", import.meta.url));

type Reply = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

describe.each(SUPPORTED_REVISIONS)("bad input over stdio at %s", (revision) => {
  const stateless = getProfile(revision)!.era === "stateless";
  const meta = {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const params = (p: Record<string, unknown>) => (stateless ? { ...p, _meta: meta } : p);

  it("answers each bad message with its code and keeps serving", async () => {
    const child = spawn(process.execPath, [...nodeArgs(SERVER), revision], { stdio: ["pipe", "pipe", "pipe"] });
    const decoder = new LineDecoder();
    const replies: Reply[] = [];
    const stdoutLines: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        stdoutLines.push(String(line));
        replies.push(JSON.parse(line as string) as Reply);
      }
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const send = (line: string) => child.stdin.write(line + "\n");
    // Up to 30 s: the first reply waits for the server process to start, which took 5 s at load 14.
    const until = async (id: number) => {
      for (let i = 0; i < 1200 && !replies.some((r) => r.id === id); i++) await new Promise((r) => setTimeout(r, 25));
      return replies.find((r) => r.id === id);
    };
    try {
      if (!stateless) {
        send(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 0,
            method: "initialize",
            params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          }),
        );
        expect((await until(0))?.result).toMatchObject({ protocolVersion: revision });
        send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      }
      send("not json at all");
      send('{"jsonrpc":"2.0","id":1,"method":"tools/call"'); // truncated
      send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: 42 }));
      send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "no/such/method", params: params({}) }));
      send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: params({ name: 7 }) }));
      send(
        JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: params({ uri: "demo://missing" }) }),
      );
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 6,
          method: "tools/call",
          params: params({ name: "fail", arguments: {} }),
        }),
      );
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: params({ name: "add", arguments: { a: 20, b: 22 } }),
        }),
      );

      // Requests are served concurrently, so replies need not come in the order sent: wait for each one.
      for (const id of [2, 3, 4, 5, 6]) await until(id);
      const last = await until(7);
      expect(last?.result).toMatchObject({ structuredContent: { sum: 42 } });
      expect(replies.filter((r) => r.id === null).map((r) => r.error?.code)).toEqual([-32700, -32700]);
      expect(replies.find((r) => r.id === 2)?.error?.code).toBe(-32600);
      expect(replies.find((r) => r.id === 3)?.error?.code).toBe(-32601);
      const invalid = replies.find((r) => r.id === 4)?.error;
      expect(invalid?.code).toBe(-32602);
      expect(invalid?.message).toContain("name");
      expect(replies.find((r) => r.id === 5)?.error?.code).toBe(stateless ? -32602 : -32002);
      expect(replies.find((r) => r.id === 6)?.result).toMatchObject({ isError: true });
      expect(replies.find((r) => r.id === 1)).toBeUndefined(); // the truncated line had no readable id
      for (const line of stdoutLines) expect(JSON.parse(line)).toHaveProperty("jsonrpc", "2.0");
    } finally {
      child.stdin.end();
      await exited;
    }
  });
});
