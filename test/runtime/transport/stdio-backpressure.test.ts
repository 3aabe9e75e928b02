/**
 * stdio backpressure over a real process: a client writes 20k requests with 2 KiB answers and does not read stdout.
 * The server must stop reading stdin while stdout is saturated, so its heap (reported by the child after a full GC)
 * stays bounded; once the client reads, every request is answered.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { LineDecoder } from "../../../runtime/jsonrpc/framing.ts";
import { nodeArgs } from "../../fixture-run.ts";

const SERVER = fileURLToPath(new URL("../fixtures/stdio-heap-server.ts", import.meta.url));
const REVISION = "2026-07-28"; // stateless: no handshake, so nothing has to be read before the flood
const COUNT = 20_000;
const MiB = 1024 * 1024;

interface HeapReport {
  readonly heapUsed: number;
  readonly bytesRead: number;
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("stops reading stdin while stdout is saturated; heap stays bounded; every request is answered", async () => {
  const child = spawn(process.execPath, ["--expose-gc", ...nodeArgs(SERVER)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const reports: HeapReport[] = [];
  const stderr: string[] = [];
  const errDecoder = new LineDecoder();
  child.stderr.on("data", (chunk: Buffer) => {
    for (const line of errDecoder.push(chunk)) {
      if (typeof line !== "string") continue;
      if (line.startsWith("heap ")) reports.push(JSON.parse(line.slice(5)) as HeapReport);
      else stderr.push(line);
    }
  });
  try {
    await until("the server's first heap report", () => reports.length > 0, 20_000);
    const baseline = reports[0]!.heapUsed;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": REVISION,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    let written = 0;
    for (let id = 1; id <= COUNT; id++) {
      const line =
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "blob", arguments: {}, _meta: meta },
        }) + "\n";
      written += Buffer.byteLength(line);
      child.stdin.write(line);
    }
    // Wait until the server stops reading (bytesRead unchanged over 1 s of reports) or has read everything.
    await until(
      "the server to stop reading",
      () => {
        const recent = reports.slice(-11);
        const last = recent[recent.length - 1]!;
        return (
          last.bytesRead >= written ||
          (recent.length === 11 && recent[0]!.bytesRead === last.bytesRead && last.bytesRead > 0)
        );
      },
      60_000,
    );
    const stalledAt = reports[reports.length - 1]!.bytesRead;
    const peak = Math.max(...reports.map((r) => r.heapUsed));
    // Without backpressure the server reads all 20k requests and queues ~40 MiB of answers.
    expect((peak - baseline) / MiB).toBeLessThan(16);
    expect(stalledAt).toBeLessThan(written / 2);

    // The client reads again: the server resumes and answers every request.
    const decoder = new LineDecoder();
    const ids = new Set<unknown>();
    let errors = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        const reply = JSON.parse(line as string) as { id: unknown; result?: unknown };
        if (reply.result === undefined) errors++;
        ids.add(reply.id);
      }
    });
    await until(`${COUNT} replies (stderr: ${stderr.join("\n")})`, () => ids.size + errors >= COUNT, 120_000);
    expect(errors).toBe(0);
    expect(ids.size).toBe(COUNT);
  } finally {
    child.stdin.end();
    child.kill();
    await exited;
  }
}, 240_000);
