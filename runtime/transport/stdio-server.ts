/**
 * The server side of stdio: newline-delimited JSON-RPC on stdin/stdout. Nothing else may be written to stdout;
 * diagnostics go to stderr. The transport reports `closed` when stdin ends, which is the client's shutdown signal.
 *
 * Backpressure: while stdout is saturated (a client that stops reading), stdin is paused until stdout drains, so
 * the replies queued in memory are bounded by the requests already read (about one pipe chunk) instead of growing
 * with everything the client keeps writing.
 */
import type { Readable, Writable } from "node:stream";
import { DEFAULT_MAX_LINE_BYTES } from "../jsonrpc/framing.ts";
import { LineWriter, readLines } from "./streams.ts";
import type { Transport, TransportSink } from "./transport.ts";

export interface StdioServerTransportOptions {
  readonly input?: Readable;
  readonly output?: Writable;
  /** Largest accepted message in bytes (default 64 MiB); longer lines are dropped and answered with -32700. */
  readonly maxMessageBytes?: number;
}

export class StdioServerTransport implements Transport {
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly writer: LineWriter;
  /** stdin is paused until stdout drains. */
  private throttled = false;
  private readonly maxMessageBytes: number | undefined;
  private detach: (() => void) | undefined;
  private sink: TransportSink | undefined;

  constructor(options: StdioServerTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.writer = new LineWriter(this.output, () => {
      if (!this.throttled && this.sink) this.throttle();
    });
    this.maxMessageBytes = options.maxMessageBytes;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    this.detach = readLines(
      this.input,
      (line) => sink.receive(line),
      (error) => this.finish(error),
      (bytes) =>
        sink.malformed?.(
          `message of ${bytes} bytes exceeds the ${this.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES}-byte limit`,
        ),
      this.maxMessageBytes,
    );
    this.input.resume();
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    return this.writer.write(message);
  }

  private throttle(): void {
    this.throttled = true;
    this.input.pause();
    const release = () => {
      this.output.off("drain", release);
      this.output.off("close", release);
      this.throttled = false;
      // After a close, reading on lets stdin's end (the client's shutdown) still be seen.
      if (this.sink) this.input.resume();
    };
    this.output.on("drain", release);
    this.output.on("close", release);
  }

  close(): Promise<void> {
    this.finish();
    return Promise.resolve();
  }

  private finish(error?: Error): void {
    const sink = this.sink;
    if (!sink) return;
    this.sink = undefined;
    this.detach?.();
    this.input.pause();
    sink.closed(error);
  }
}
