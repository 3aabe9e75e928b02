/** Newline-delimited JSON over Node streams: shared by the stdio server and client transports. */
import type { Readable, Writable } from "node:stream";
import { ConnectionClosedError } from "../jsonrpc/errors.ts";
import { encodeLine, LineDecoder } from "../jsonrpc/framing.ts";

/** Reads lines from `input`; `onEnd` fires once, with an error when the stream failed or ended mid-message. */
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
    if (!error && decoder.buffered > 0) error = new Error(`stream ended inside a message (${decoder.buffered} bytes unterminated)`);
    onEnd(error);
  };
  const onData = (chunk: Buffer | string) => {
    for (const line of decoder.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) {
      if (typeof line === "string") onLine(line);
      else onOversized(line.oversized);
    }
  };
  const onClose = () => finish();
  const onError = (error: Error) => finish(error);
  const detach = () => {
    input.off("data", onData);
    input.off("end", onClose);
    input.off("close", onClose);
    input.off("error", onError);
  };
  input.on("data", onData);
  input.on("end", onClose);
  input.on("close", onClose);
  input.on("error", onError);
  return detach;
}

/**
 * Writes one message per line. Messages written in the same tick are joined into one string and written once
 * (one syscall instead of one per message), which matters when many requests are in flight.
 */
export class LineWriter {
  private batch = "";
  private scheduled = false;
  private failed: Error | undefined;
  private waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private readonly flush = () => {
    this.scheduled = false;
    const text = this.batch;
    const waiters = this.waiters;
    this.batch = "";
    this.waiters = [];
    if (this.failed || this.output.destroyed || this.output.writableEnded) {
      const error = new ConnectionClosedError(this.failed);
      for (const w of waiters) w.reject(error);
      return;
    }
    if (this.output.write(text) || waiters.length === 0) {
      for (const w of waiters) w.resolve();
      return;
    }
    const done = (error?: Error) => {
      this.output.off("drain", onDrain);
      this.output.off("close", onGone);
      for (const w of waiters) (error ? w.reject(error) : w.resolve());
    };
    const onDrain = () => done();
    const onGone = () => done(new ConnectionClosedError(this.failed));
    this.output.once("drain", onDrain);
    this.output.once("close", onGone);
  };

  constructor(private readonly output: Writable) {
    output.on("error", (error: Error) => {
      this.failed = error;
    });
  }

  write(message: object): Promise<void> {
    if (this.failed || this.output.destroyed || this.output.writableEnded) {
      return Promise.reject(new ConnectionClosedError(this.failed));
    }
    this.batch += encodeLine(message);
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flush);
    }
    // Callers rarely await sends; settle them only when the stream pushes back (see flush).
    if (this.output.writableNeedDrain) {
      return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
    }
    return RESOLVED;
  }
}

const RESOLVED: Promise<void> = Promise.resolve();
