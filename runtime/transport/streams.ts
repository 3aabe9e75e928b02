/** Newline-delimited JSON over Node streams: shared by the stdio server and client transports. */
import type { Readable, Writable } from "node:stream";
import { ConnectionClosedError } from "../jsonrpc/errors.ts";
import { encodeLine, LineDecoder } from "../jsonrpc/framing.ts";

/**
 * Reads lines from `input`; `onEnd` fires once, with an error when the stream failed or was destroyed mid-message.
 * A last line without a trailing newline is still a message: at a clean end it is delivered, and `onEnd` follows a
 * turn of the event loop later, as it would after a newline-terminated line, so its answer can still go out.
 */
export function readLines(
  input: Readable,
  onLine: (line: string) => void,
  onEnd: (error?: Error) => void,
  onOversized: (bytes: number) => void = () => undefined,
  maxLineBytes?: number,
): () => void {
  const decoder = new LineDecoder(maxLineBytes);
  let ended = false;
  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    detach();
    if (!error && decoder.buffered > 0)
      error = new Error(`stream ended inside a message (${decoder.buffered} bytes unterminated)`);
    onEnd(error);
  };
  const onData = (chunk: Buffer | string) => {
    for (const line of decoder.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) deliver(line);
  };
  const deliver = (line: string | { oversized: number }) => {
    if (typeof line === "string") onLine(line);
    else onOversized(line.oversized);
  };
  const onEndOfData = () => {
    const last = decoder.end();
    if (last === undefined) return finish();
    detach();
    deliver(last);
    setImmediate(finish);
  };
  const onClose = () => finish();
  const onError = (error: Error) => finish(error);
  const detach = () => {
    input.off("data", onData);
    input.off("end", onEndOfData);
    input.off("close", onClose);
    input.off("error", onError);
  };
  input.on("data", onData);
  input.on("end", onEndOfData);
  input.on("close", onClose);
  input.on("error", onError);
  return () => {
    ended = true;
    detach();
  };
}

/**
 * Writes one message per line. The first message of a turn of the event loop goes out at once: with many requests in
 * flight, a peer that receives it starts working while this side is still producing the rest, so both processes run
 * in parallel (one joined write per tick made them take turns: 96k → 165k calls/s at concurrency 32). The messages
 * that follow in the same turn are joined and written once when its callbacks and promise jobs are done
 * (`process.nextTick`): a write is a system call, and one per message was a third of the server's CPU per call at
 * concurrency 32 (12.0 → 8.5 µs; the newline echo of `bench/runtime-roundtrip.ts` writes once per chunk read).
 */
export class LineWriter {
  private failed: Error | undefined;
  /** The lines joined since this turn's first write; undefined while no write happened this turn. */
  private joined: string | undefined;

  constructor(
    private readonly output: Writable,
    /** Called when a write leaves the stream over its high-water mark (the server pauses its input). */
    private readonly onFull: () => void = () => undefined,
  ) {
    output.on("error", (error: Error) => {
      this.failed = error;
    });
  }

  write(message: object): Promise<void> {
    if (this.failed || this.output.destroyed || this.output.writableEnded) {
      return Promise.reject(new ConnectionClosedError(this.failed));
    }
    const line = encodeLine(message);
    if (this.joined !== undefined) {
      this.joined += line;
      return this.output.writableNeedDrain ? this.drained() : RESOLVED;
    }
    this.joined = "";
    process.nextTick(this.flush);
    if (this.output.write(line)) return RESOLVED;
    this.onFull();
    return this.drained();
  }

  /** Writes the lines joined this turn now (before ending the stream). */
  readonly flush = (): void => {
    const text = this.joined;
    this.joined = undefined;
    if (!text || this.failed || this.output.destroyed || this.output.writableEnded) return;
    if (!this.output.write(text)) this.onFull();
  };

  /** Settles once the stream drained (callers rarely await sends: only when the stream pushes back). */
  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        this.output.off("drain", onDrain);
        this.output.off("close", onGone);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => done();
      const onGone = () => done(new ConnectionClosedError(this.failed));
      this.output.once("drain", onDrain);
      this.output.once("close", onGone);
    });
  }
}

const RESOLVED: Promise<void> = Promise.resolve();
