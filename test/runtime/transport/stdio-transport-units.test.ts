/**
 * The stdio server transport on in-memory streams: stdin paused while stdout pushes back and resumed on drain (or when
 * stdout goes away), and the last line without a newline delivered before `closed`.
 */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { StdioServerTransport } from "../../../runtime/transport/stdio-server.ts";
import { LineWriter } from "../../../runtime/transport/streams.ts";
import type { TransportSink } from "../../../runtime/transport/transport.ts";

/** A stdout whose writes complete only when the test says so. */
function slowOutput() {
  const held: Array<() => void> = [];
  const output = new Writable({
    highWaterMark: 16,
    write(_chunk, _encoding, callback) {
      held.push(() => callback());
    },
  });
  const release = () => {
    for (const done of held.splice(0)) done();
  };
  return { output, release };
}

function recordingSink() {
  const events: string[] = [];
  const sink: TransportSink = {
    receive: (frame) => events.push(`line ${String(frame)}`),
    closed: (error) => events.push(`closed${error ? ` ${error.message}` : ""}`),
    malformed: (reason) => events.push(`malformed ${reason}`),
  };
  return { events, sink };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("StdioServerTransport", () => {
  it("pauses stdin while stdout is saturated and resumes it on drain", async () => {
    const input = new PassThrough();
    const { output, release } = slowOutput();
    const transport = new StdioServerTransport({ input, output });
    const { events, sink } = recordingSink();
    await transport.start(sink);
    expect(input.isPaused()).toBe(false);
    const sent = transport.send({ jsonrpc: "2.0", id: 1, result: { text: "more than sixteen bytes" } });
    expect(input.isPaused()).toBe(true);
    // While paused, what the client writes stays unread.
    input.write('{"n":1}\n');
    await tick();
    expect(events).toEqual([]);
    release();
    await sent;
    await tick();
    expect(input.isPaused()).toBe(false);
    expect(events).toEqual(['line {"n":1}']);
    // A small message that fits does not pause.
    await transport.send({ a: 1 });
    expect(input.isPaused()).toBe(false);
    release();
    await transport.close();
    expect(events.at(-1)).toBe("closed");
  });

  it("reads on when stdout closes while saturated, so the end of stdin is still seen", async () => {
    const input = new PassThrough();
    const { output } = slowOutput();
    const transport = new StdioServerTransport({ input, output });
    const { events, sink } = recordingSink();
    await transport.start(sink);
    transport.send({ big: "x".repeat(64) }).catch(() => undefined);
    expect(input.isPaused()).toBe(true);
    output.destroy();
    await tick();
    expect(input.isPaused()).toBe(false);
    input.end();
    await tick();
    await tick();
    expect(events).toEqual(["closed"]);
  });

  it("delivers a last line without a newline, then reports the end", async () => {
    const input = new PassThrough();
    const transport = new StdioServerTransport({ input, output: new PassThrough() });
    const { events, sink } = recordingSink();
    await transport.start(sink);
    input.end('{"a":1}\n{"b":2}');
    await tick();
    expect(events[0]).toBe('line {"a":1}');
    expect(events[1]).toBe('line {"b":2}');
    await tick();
    await tick();
    expect(events).toEqual(['line {"a":1}', 'line {"b":2}', "closed"]);
  });

  it("reports an oversized last line as malformed, and a destroyed stdin mid-line as an error", async () => {
    const input = new PassThrough();
    const transport = new StdioServerTransport({ input, output: new PassThrough(), maxMessageBytes: 4 });
    const { events, sink } = recordingSink();
    await transport.start(sink);
    input.end("123456");
    for (let i = 0; i < 4; i++) await tick();
    expect(events).toEqual(["malformed message of 6 bytes exceeds the 4-byte limit", "closed"]);

    const cut = new PassThrough();
    const other = recordingSink();
    await new StdioServerTransport({ input: cut, output: new PassThrough() }).start(other.sink);
    cut.write('{"partial":');
    await tick();
    cut.destroy();
    for (let i = 0; i < 3; i++) await tick();
    expect(other.events).toEqual(["closed stream ended inside a message (11 bytes unterminated)"]);
  });
});

describe("LineWriter", () => {
  it("writes a turn's first message at once and joins the rest of the turn into one write", async () => {
    const chunks: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString("utf8"));
        callback();
      },
    });
    const writer = new LineWriter(output);
    void writer.write({ n: 1 });
    expect(chunks).toEqual(['{"n":1}\n']); // out before anything else of the turn runs
    for (let n = 2; n <= 5; n++) void writer.write({ n });
    expect(chunks).toHaveLength(1);
    await tick();
    expect(chunks).toEqual(['{"n":1}\n', '{"n":2}\n{"n":3}\n{"n":4}\n{"n":5}\n']);
    void writer.write({ n: 6 }); // a new turn: its first message goes out at once again
    expect(chunks).toHaveLength(3);
    await tick();
    expect(chunks).toHaveLength(3);
  });
});
