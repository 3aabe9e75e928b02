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
 * Writes one message per line, each as soon as it is sent. Writes are not coalesced per tick on purpose: with many
 * requests in flight, a peer that receives the first message at once starts working while this side is still
 * producing the rest, so both processes run in parallel; one joined write per tick made them take turns (stdio at
 * concurrency 32: 96k → 165k calls/s in `bench/runtime-roundtrip.ts`, for ~10% more CPU per call).
 */
export class LineWriter {
  private failed: Error | undefined;

  constructor(private readonly output: Writable) {
    output.on("error", (error: Error) => {
      this.failed = error;
    });
  }

  write(message: object): Promise<void> {
    if (this.failed || this.output.destroyed || this.output.writableEnded) {
      return Promise.reject(new ConnectionClosedError(this.failed));
    }
    if (this.output.write(encodeLine(message))) return RESOLVED;
    // Callers rarely await sends; settle them only when the stream pushes back.
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
