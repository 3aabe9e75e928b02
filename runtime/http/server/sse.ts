/**
 * Server-Sent Events writing. An `SseStream` formats events and hands text chunks to a `ChunkSink`, which is
 * either a web `ReadableStream` controller or a `node:http` response; it learns when the peer went away so the
 * owner can free what the stream held.
 */

export interface ChunkSink {
  write(chunk: string): void;
  end(): void;
}

export interface SseEvent {
  readonly id?: string;
  readonly event?: string;
  /** One line of data; JSON text never contains a raw newline. */
  readonly data: string;
  readonly retryMs?: number;
}

/** Buffers what is written before the HTTP edge attaches its byte sink; afterwards writes go straight through. */
class PendingSink implements ChunkSink {
  text = "";
  ended = false;
  write(chunk: string): void {
    this.text += chunk;
  }
  end(): void {
    this.ended = true;
  }
}

export class SseStream {
  private readonly pending = new PendingSink();
  private sink: ChunkSink | undefined = this.pending;
  private attached = false;
  private readonly closeListeners: Array<() => void> = [];
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  get open(): boolean {
    return this.sink !== undefined;
  }

  /** Called once by the HTTP edge: flushes what was written so far into the real sink. */
  attach(sink: ChunkSink): void {
    if (this.attached) return;
    this.attached = true;
    const pending = this.pending;
    if (pending.text) sink.write(pending.text);
    pending.text = "";
    if (pending.ended || !this.sink) sink.end();
    else this.sink = sink;
  }

  send(event: SseEvent): boolean {
    if (!this.sink) return false;
    let text = "";
    if (event.retryMs !== undefined) text += `retry: ${event.retryMs}\n`;
    if (event.id !== undefined) text += `id: ${event.id}\n`;
    if (event.event !== undefined) text += `event: ${event.event}\n`;
    text += `data: ${event.data}\n\n`;
    this.sink.write(text);
    return true;
  }

  /** An SSE comment: keeps idle connections alive through proxies; clients ignore it. */
  comment(text = ""): void {
    this.sink?.write(`: ${text}\n\n`);
  }

  /** Send a comment every `ms` until the stream closes. */
  startKeepAlive(ms: number): void {
    if (ms <= 0 || this.keepAlive) return;
    this.keepAlive = setInterval(() => this.comment(), ms);
    this.keepAlive.unref?.();
  }

  onClose(listener: () => void): void {
    if (!this.sink) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  /** We end the stream. */
  end(): void {
    const sink = this.sink;
    if (!sink) return;
    this.finish();
    sink.end();
  }

  /** The peer went away (or we ended): run close listeners once. */
  peerClosed(): void {
    if (this.sink) this.finish();
  }

  private finish(): void {
    this.sink = undefined;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/**
 * The event carrying one JSON-RPC message, with its id when it was stored for resumption. Built without a spread
 * (`{ ...(id ? { id } : {}), event, data }` is V8's slow path, ~2 µs per event on Node 20).
 */
export function messageEvent(id: string | undefined, message: object): SseEvent {
  const data = JSON.stringify(message);
  return id === undefined ? { event: "message", data } : { id, event: "message", data };
}
