/** Shared helpers for the HTTP tests: raw POSTs and a message-collecting sink for transports. */
import type { Transport, TransportSink } from "../../../runtime/transport/transport.ts";

export const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
export const MODERN = "2026-07-28";

export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    ...extra,
  };
}

export function initializeMessage(id: number | string, version = "2025-11-25", capabilities: object = {}): object {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: version, capabilities, clientInfo: { name: "test", version: "1.0.0" } },
  };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Start a handshake-era session with raw HTTP; returns its id. */
export async function openSession(url: string, version = "2025-11-25"): Promise<string> {
  const response = await post(url, initializeMessage(1, version));
  await response.text();
  const id = response.headers.get("mcp-session-id");
  if (!id) throw new Error(`no session id (HTTP ${response.status})`);
  const ack = await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { "mcp-session-id": id, "mcp-protocol-version": version },
  );
  if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
  return id;
}

/** A sink that records what a transport delivers and lets a test wait for a message. */
export class CollectingSink implements TransportSink {
  readonly messages: Record<string, unknown>[] = [];
  closedWith: Error | undefined | null = null;
  private waiters: Array<{
    test: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }> = [];

  receive(frame: string | object): void {
    const message = (typeof frame === "string" ? JSON.parse(frame) : frame) as Record<string, unknown>;
    this.messages.push(message);
    this.waiters = this.waiters.filter((w) => (w.test(message) ? (w.resolve(message), false) : true));
  }

  closed(error?: Error): void {
    this.closedWith = error;
  }

  next(test: (m: Record<string, unknown>) => boolean, timeoutMs = 5000): Promise<Record<string, unknown>> {
    const found = this.messages.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("timed out waiting for a message")), timeoutMs);
      this.waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  response(id: string | number, timeoutMs?: number): Promise<Record<string, unknown>> {
    return this.next((m) => m["id"] === id && !("method" in m), timeoutMs);
  }
}

/** Send a request through a transport and wait for its response on the sink. */
export async function request(
  transport: Transport,
  sink: CollectingSink,
  id: string | number,
  method: string,
  params?: unknown,
): Promise<Record<string, unknown>> {
  await transport.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  return sink.response(id);
}

export async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
