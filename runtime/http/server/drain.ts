/**
 * Shutting an endpoint down without breaking calls (a rolling restart): readiness turns false first, then new
 * requests are refused with a retryable 503, streams that carry no answer end (their clients resume elsewhere), and
 * the requests in flight get until a deadline to finish; what is still unanswered then gets the retryable error.
 * Web APIs only (the web entry uses it too).
 */
import { SseStream } from "./sse.ts";
import type { HttpResponseOut } from "./types.ts";

/** How an endpoint stands: serving; still serving but telling balancers to stop sending here; refusing requests. */
export type EndpointState = "serving" | "unready" | "draining";

/** Options of a graceful close (`RunningServer.close`, `McpHttpHandler.drain`). */
export interface DrainOptions {
  /**
   * How long requests in flight may take to finish once new ones are refused (ms). What is still unanswered then
   * gets 503 with `Retry-After` (or, on a stream already open, a JSON-RPC error): never 404 while the session lives
   * on in a shared store. Default 10,000.
   */
  readonly drainMs?: number;
  /**
   * How long readiness answers 503 before requests are refused and the listener closes (ms), so balancers that probe
   * it stop sending here first; requests are served as usual meanwhile. Default 0.
   */
  readonly unreadyMs?: number;
}

export const DEFAULT_DRAIN_MS = 10_000;

/** The HTTP requests an endpoint is answering: counted from arrival until the answer (or its SSE stream) ends. */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  begin(): void {
    this.count++;
  }

  readonly end = (): void => {
    if (--this.count === 0) for (const waiter of this.waiters.splice(0)) waiter();
  };

  /** The answer is decided: the request ends now, or with its SSE stream. */
  readonly settle = (out: HttpResponseOut): HttpResponseOut => {
    if (out.body instanceof SseStream) out.body.onClose(this.end);
    else this.end();
    return out;
  };

  /** Resolves true once nothing is in flight, false when `ms` passed first. */
  idle(ms: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, ms);
      this.waiters.push(waiter);
    });
  }
}

/** Resolves after `ms` (0: at once). */
export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
