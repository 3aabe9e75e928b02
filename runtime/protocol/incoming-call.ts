/** One request the engine received and is running: its abort signal is made on first use (most handlers never read it). */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { IncomingContext } from "../transport/transport.ts";
import type { IncomingRequest } from "./engine-contract.ts";

export class IncomingCall implements IncomingRequest {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  /** The peer cancelled it: no response is sent. */
  cancelled = false;
  /** Cancels this request when the carrier of the message (e.g. an HTTP stream) goes away. */
  onCarrierGone: (() => void) | undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly params: unknown,
    readonly context: IncomingContext | undefined,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }
}
