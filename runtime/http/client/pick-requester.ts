/** Which requester a transport uses: the option, else node:http on Node and fetch elsewhere. */
import type { HttpClientOptions } from "./options.ts";
import { nodeHttpAvailable, nodeRequester } from "./node-requester.ts";
import { fetchRequester, type HttpRequester } from "./requester.ts";

/** Whether this process is Node itself (Bun and Deno also have `process.versions.node`; they keep `fetch`). */
function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process;
  return proc?.versions?.["node"] !== undefined && proc.versions["bun"] === undefined && !("Deno" in globalThis);
}

/**
 * The requester of a transport: `options.fetch` when given (it wraps fetch, e.g. for OAuth); else `options.http`:
 * "node" (node:http, an error where it is missing), "fetch", or "auto" (the default): node:http on Node, fetch
 * elsewhere. The second value closes the node path's keep-alive connections.
 */
export function requesterFor(options: HttpClientOptions): { request: HttpRequester; close: () => void } {
  const choice = options.http ?? "auto";
  if (options.fetch !== undefined || choice === "fetch" || (choice === "auto" && !(isNode() && nodeHttpAvailable())))
    return { request: fetchRequester(options.fetch ?? ((input, init) => fetch(input, init))), close: () => {} };
  if (!nodeHttpAvailable())
    throw new Error('HTTP client: http: "node" needs node:http (process.getBuiltinModule, Node ≥ 20.16)');
  return nodeRequester({ maxSockets: options.maxConnections ?? 256 });
}
