/** Test helpers: a transport that records what is sent and lets a test inject raw frames. */
import type { IncomingContext, Transport, TransportSink } from "../../runtime/transport/transport.ts";

export class ScriptedTransport implements Transport {
  readonly sent: object[] = [];
  sink: TransportSink | undefined;
  private waiters: Array<() => void> = [];

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    this.sent.push(message);
    for (const wake of this.waiters.splice(0)) wake();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.sink?.closed();
    return Promise.resolve();
  }

  inject(frame: string | object, context?: IncomingContext): void {
    this.sink?.receive(frame, context);
  }

  /** Resolves once at least `count` messages were sent. */
  async waitForSent(count: number, timeoutMs = 2000): Promise<object[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.sent.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} sent messages, got ${JSON.stringify(this.sent)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
    return this.sent;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
