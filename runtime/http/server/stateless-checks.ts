/**
 * HTTP-level checks of a stateless-era POST (2026-07-28 on) before the message reaches the server:
 * `_meta` version and capabilities present (-32602; a notification may name its version in the header alone),
 * `MCP-Protocol-Version` equal to the `_meta` version
 * (-32020), a supported version (-32022), and the mirrored headers equal to the body (-32020). All are 400.
 */
import { MetaKey } from "../../protocol/meta.ts";
import { isObject, type Posted } from "./answers.ts";
import type { RequestId } from "./exchange.ts";
import { checkRequestHeaders, headerParamsOf, type HeaderParam, type HeaderSource } from "../mcp-headers.ts";
import { jsonResponse, type HttpResponseOut } from "./types.ts";

/** A tool's `x-mcp-header` annotations by tool name (undefined: the tool has none or is unknown). */
export type HeaderParamsLookup = (toolName: string) => readonly HeaderParam[] | undefined;

/** Build a lookup from tool definitions (as listed by `tools/list`). Invalid annotations are skipped. */
export function headerParamsFromTools(
  tools: Iterable<{ readonly name: string; readonly inputSchema: unknown }>,
): HeaderParamsLookup {
  const byName = new Map<string, readonly HeaderParam[]>();
  for (const tool of tools) {
    const result = headerParamsOf(tool.inputSchema);
    if (result.ok && result.params.length > 0) byName.set(tool.name, result.params);
  }
  return (name) => byName.get(name);
}

export const HEADER_MISMATCH = -32020;
export const MISSING_CAPABILITY = -32021;
export const UNSUPPORTED_VERSION = -32022;

/** A 400 JSON-RPC error; `id` is the request's, or null when there is none (a notification, a response). */
function error(code: number, message: string, id: RequestId | undefined | null, data?: unknown): HttpResponseOut {
  return jsonResponse(400, {
    jsonrpc: "2.0",
    id: id ?? null,
    error: data === undefined ? { code, message } : { code, message, data },
  });
}

export function checkStatelessRequest(
  request: HeaderSource,
  posted: Posted,
  headerParams: HeaderParamsLookup | undefined,
  supported: readonly string[] | undefined,
): HttpResponseOut | undefined {
  const { id, method, params } = posted;
  if (method === undefined)
    return error(-32600, "Invalid Request: clients do not POST responses in this protocol version", null);
  const header = request.header("mcp-protocol-version");
  // Only requests must name their revision in `_meta` (basic/index.mdx); a notification's POST names it in the header.
  const version = posted.metaVersion ?? (posted.kind === "notification" ? header : undefined);
  if (version === undefined) return error(-32602, `Invalid params: _meta ${MetaKey.protocolVersion} is required`, id);
  if (header === undefined)
    return error(HEADER_MISMATCH, "Header mismatch: MCP-Protocol-Version header is required", id);
  if (header !== version)
    return error(
      HEADER_MISMATCH,
      `Header mismatch: MCP-Protocol-Version header '${header}' does not match _meta value '${version}'`,
      id,
    );
  if (supported && !supported.includes(version))
    return error(UNSUPPORTED_VERSION, `Unsupported protocol version: ${version}`, id, {
      supported: [...supported],
      requested: version,
    });
  if (posted.kind !== "request") return undefined;
  const meta = params?.["_meta"];
  if (!isObject(isObject(meta) ? meta[MetaKey.clientCapabilities] : undefined))
    return error(-32602, `Invalid params: _meta ${MetaKey.clientCapabilities} is required`, id);
  const toolName = method === "tools/call" && typeof params?.["name"] === "string" ? params["name"] : undefined;
  const mismatch = checkRequestHeaders(
    request,
    method,
    params,
    toolName !== undefined ? headerParams?.(toolName) : undefined,
  );
  if (mismatch) return error(HEADER_MISMATCH, `Header mismatch: ${mismatch}`, id);
  return undefined;
}

/** The HTTP status of a stateless-era answer sent as plain JSON. */
export function statelessStatusOf(response: object): number {
  if (!("error" in response) || !isObject(response.error)) return 200;
  const code = response.error["code"];
  if (code === -32601) return 404;
  if (code === HEADER_MISMATCH || code === MISSING_CAPABILITY || code === UNSUPPORTED_VERSION) return 400;
  return 200;
}
