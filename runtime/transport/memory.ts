/**
 * An in-memory linked pair of transports, for tests and for embedding a server in the same process. Messages are
 * handed over as objects (no serialization) on a microtask, in order. The receiver must treat them as read-only.
 */
import { ConnectionClosedError } from "../jsonrpc/errors.ts";
import type { IncomingContext, Transport, TransportSink } from "./transport.ts";

class MemoryTransport implements Transport {
  peer!: MemoryTransport;
  private sink: TransportSink | undefined;
  private backlog: object[] = [];
  private isClosed = false;

  constructor(private readonly context: IncomingContext | undefined) {}

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const queued = this.backlog;
    this.backlog = [];
    for (const message of queued) this.deliver(message);
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    this.peer.deliverLater(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.shutdown();
    this.peer.shutdown();
    return Promise.resolve();
  }

  private deliverLater(message: object): void {
    queueMicrotask(() => this.deliver(message));
  }

  private deliver(message: object): void {
    if (this.isClosed) return;
    if (this.sink) this.sink.receive(message, this.context);
    else this.backlog.push(message);
  }

  private shutdown(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    queueMicrotask(() => this.sink?.closed());
  }
}

export interface MemoryPairOptions {
  /** Context attached to every frame the server side receives (to test auth/header plumbing). */
  readonly serverContext?: IncomingContext;
}

/** Returns `[clientSide, serverSide]`; what one sends, the other receives. Closing either closes both. */
export function createMemoryTransportPair(options: MemoryPairOptions = {}): [Transport, Transport] {
  const client = new MemoryTransport(undefined);
  const server = new MemoryTransport(options.serverContext);
  client.peer = server;
  server.peer = client;
  return [client, server];
}
