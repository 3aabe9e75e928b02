/**
 * The client's GET requests of Streamable HTTP (handshake era): resuming a broken response stream with
 * `Last-Event-ID`, and the standalone stream for server-initiated messages, reconnected after the server's `retry`.
 */
import { delay, readSse, type SseCursor } from "./sse.ts";
import type { HttpClientOptions } from "./options.ts";
import type { HttpAnswer, HttpRequester } from "./requester.ts";

/** What the GET requests need from their transport. */
export interface GetContext {
  readonly url: URL;
  readonly request: HttpRequester;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
  readonly reconnect: HttpClientOptions["reconnect"];
  /** The transport's headers for a request that carries no message (session id, version, authorization). */
  headers(): Promise<Record<string, string>>;
}

/** The wait before reconnecting: the server's `retry`, else exponential backoff from the options. */
export function retryDelay(context: GetContext, cursor: SseCursor, attempt: number): number {
  if (cursor.retryMs !== undefined) return cursor.retryMs;
  const initial = context.reconnect?.initialDelayMs ?? 1000;
  return Math.min(initial * 1.5 ** attempt, context.reconnect?.maxDelayMs ?? 30_000);
}

/**
 * Waits out the reconnect delay, counted from `since` (when the stream ended or the attempt failed) rather than from
 * this call, and builds the next request's headers meanwhile (a token refresh among them), so that neither makes the
 * reconnect later than the server's `retry` asks; only the timer's own lateness on a loaded event loop remains.
 * Resolves with the headers, or undefined when building them failed (the request then builds them again).
 */
export async function waitToReconnect(
  context: GetContext,
  cursor: SseCursor,
  attempt: number,
  since: number,
): Promise<Record<string, string> | undefined> {
  const headers = context.headers().catch(() => undefined);
  await delay(Math.max(0, retryDelay(context, cursor, attempt) - (performance.now() - since)), context.signal);
  return headers;
}

async function get(
  context: GetContext,
  lastEventId: string | undefined,
  prepared?: Record<string, string>,
): Promise<HttpAnswer> {
  const headers = prepared ?? (await context.headers());
  headers["accept"] = "text/event-stream";
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return context.request(context.url, { method: "GET", headers, signal: context.signal });
}

/** GET with Last-Event-ID; undefined when the server does not resume (or the attempt failed: the caller retries). */
export async function resumeStream(
  context: GetContext,
  lastEventId: string | undefined,
  prepared?: Record<string, string>,
): Promise<HttpAnswer | undefined> {
  try {
    const response = await get(context, lastEventId, prepared);
    if (isOk(response) && (response.header("content-type") ?? "").includes("text/event-stream")) return response;
    await response.cancel();
  } catch {
    // retried by the caller
  }
  return undefined;
}

/** Keeps the standalone GET stream open until the transport closes, the server refuses it, or reconnects run out. */
export async function runGetStream(context: GetContext, onMessage: (data: string) => void): Promise<void> {
  const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
  let prepared: Record<string, string> | undefined;
  for (let attempt = 0; !context.signal.aborted;) {
    let response: HttpAnswer;
    try {
      response = await get(context, cursor.lastEventId, prepared);
    } catch {
      if (++attempt > (context.reconnect?.maxAttempts ?? 5)) return;
      prepared = await waitToReconnect(context, cursor, attempt, performance.now());
      continue;
    }
    if (!isOk(response)) {
      await response.cancel();
      return; // 405: the server offers no GET stream; 404: the session is gone (the next POST recovers)
    }
    attempt = 0;
    await readSse(response, cursor, { onMessage }).catch(() => undefined);
    prepared = await waitToReconnect(context, cursor, attempt, performance.now());
  }
}

/** A 2xx status (fetch's `Response.ok`). */
export const isOk = (answer: HttpAnswer): boolean => answer.status >= 200 && answer.status < 300;
