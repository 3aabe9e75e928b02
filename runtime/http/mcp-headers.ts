/**
 * Request metadata headers of the stateless era (2026-07-28 on): `Mcp-Method`, `Mcp-Name` and the
 * `Mcp-Param-{Name}` headers a tool asks for with `x-mcp-header` in its input schema. Shared by the server
 * (validation against the body, -32020 on mismatch) and the client (mirroring).
 */

import { base64FromBytes, bytesFromBase64 } from "../transport/base64.ts";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** RFC 9110 `tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PLAIN_SAFE = /^[\x20-\x7e\t]*$/;
/** Throws on bytes that are not UTF-8 (a replacement character would otherwise hide them). */
const UTF8_STRICT = new TextDecoder("utf-8", { fatal: true });

/** A header value for `value`: plain when it is safe ASCII, else the `=?base64?…?=` form. */
export function encodeHeaderValue(value: string): string {
  const plain =
    PLAIN_SAFE.test(value) &&
    value === value.trim() &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return plain ? value : `${SENTINEL_PREFIX}${base64FromBytes(new TextEncoder().encode(value))}${SENTINEL_SUFFIX}`;
}

/** The value a header carries, or undefined when it is malformed (bad characters or bad Base64). */
export function decodeHeaderValue(raw: string): string | undefined {
  if (raw.startsWith(SENTINEL_PREFIX) && raw.endsWith(SENTINEL_SUFFIX) && raw.length >= 11) {
    const b64 = raw.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
    const bytes = bytesFromBase64(b64);
    if (bytes === undefined) return undefined;
    try {
      return UTF8_STRICT.decode(bytes);
    } catch {
      return undefined; // not UTF-8
    }
  }
  return PLAIN_SAFE.test(raw) ? raw : undefined;
}

/** One `x-mcp-header` annotation: the header name part and the `properties` path to the value. */
export interface HeaderParam {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

export type HeaderParamsResult =
  { readonly ok: true; readonly params: readonly HeaderParam[] } | { readonly ok: false; readonly reason: string };

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function countAnnotations(node: unknown): number {
  if (Array.isArray(node)) return node.reduce<number>((n, item) => n + countAnnotations(item), 0);
  if (!isObject(node)) return 0;
  let n = "x-mcp-header" in node ? 1 : 0;
  for (const value of Object.values(node)) n += countAnnotations(value);
  return n;
}

/** The annotations of a tool's input schema, or why the tool definition is invalid. */
export function headerParamsOf(inputSchema: unknown): HeaderParamsResult {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const walk = (schema: JsonObject, path: string[]): string | undefined => {
    const properties = schema["properties"];
    if (!isObject(properties)) return undefined;
    for (const [key, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      const annotation = child["x-mcp-header"];
      if (annotation !== undefined) {
        if (typeof annotation !== "string" || !TOKEN.test(annotation))
          return `x-mcp-header on ${[...path, key].join(".")} is not an HTTP token`;
        const type = child["type"];
        if (type !== "string" && type !== "integer" && type !== "boolean")
          return `x-mcp-header on ${[...path, key].join(".")} needs type string, integer or boolean`;
        if (seen.has(annotation.toLowerCase())) return `x-mcp-header "${annotation}" is not unique`;
        seen.add(annotation.toLowerCase());
        params.push({ name: annotation, path: [...path, key], type });
      }
      const nested = walk(child, [...path, key]);
      if (nested) return nested;
    }
    return undefined;
  };
  if (!isObject(inputSchema)) return { ok: true, params };
  const reason = walk(inputSchema, []);
  if (reason) return { ok: false, reason };
  if (countAnnotations(inputSchema) !== params.length)
    return { ok: false, reason: "x-mcp-header is only allowed on properties reachable through `properties`" };
  return { ok: true, params };
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined; // own keys: "constructor" is no argument
    node = node[key];
  }
  return node;
}

/** The header text for an argument value, or undefined when the header must be omitted. */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Client side: the `Mcp-Param-*` headers for a call. */
export function paramHeadersFor(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = paramHeaderText(valueAt(args, param.path));
    if (text !== undefined) headers[`mcp-param-${param.name.toLowerCase()}`] = text;
  }
  return headers;
}

/** A JSON number written in decimal (`42`, `42.0`, `-1e3`); not `0x2a`, ` 42`, `Infinity` or "" (Number() takes those). */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

function sameValue(decoded: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === "string") return decoded === bodyValue;
  if (typeof bodyValue === "boolean") return decoded === String(bodyValue);
  // Integers compare numerically (the spec: `42.0` and `42` are equal), but only decimal text counts as a number.
  if (typeof bodyValue === "number") return DECIMAL.test(decoded) && Number(decoded) === bodyValue;
  return false;
}

/**
 * Does the `Mcp-Name` text mirror the body's `name`/`uri`? A header carries text, so a body value that is a number
 * or a boolean is mirrored by its JSON text (`5` → "5"); whether such a name is valid is the body validation's
 * question (-32602), not a header mismatch.
 */
function sameName(decoded: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === "string") return decoded === bodyValue;
  if ((typeof bodyValue === "number" && Number.isFinite(bodyValue)) || typeof bodyValue === "boolean")
    return decoded === JSON.stringify(bodyValue);
  return false;
}

/** A body value as quoted in an error message: strings as they are, anything else as JSON (never "[object Object]"). */
function shown(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "(none)" : (JSON.stringify(value) ?? String(value));
}

/** Methods whose `Mcp-Name` header mirrors a body field (the server checks it, the client mirrors it). */
export const NAME_FIELD: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // Tasks extension (tasks.md §Streamable HTTP: Routing Headers): not tasks/result or tasks/list, which are no methods.
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

export interface HeaderSource {
  header(name: string): string | undefined;
}

/**
 * Server side: check `Mcp-Method`, `Mcp-Name` and the tool's `Mcp-Param-*` headers against the body.
 * Returns a description of the first mismatch (→ HTTP 400, -32020), or undefined when all agree.
 */
export function checkRequestHeaders(
  request: HeaderSource,
  method: string,
  params: JsonObject | undefined,
  toolParams: readonly HeaderParam[] | undefined,
): string | undefined {
  const methodHeader = request.header("mcp-method");
  if (methodHeader === undefined) return "missing Mcp-Method header";
  if (methodHeader !== method) return `Mcp-Method header '${methodHeader}' does not match body method '${method}'`;
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method] : undefined; // own keys only: "toString" is a method name too
  if (field !== undefined) {
    const raw = request.header("mcp-name");
    if (raw === undefined) return "missing Mcp-Name header";
    const decoded = decodeHeaderValue(raw);
    const bodyValue = params?.[field];
    if (decoded === undefined) return "Mcp-Name header has invalid characters or encoding";
    if (!sameName(decoded, bodyValue))
      return `Mcp-Name header value '${decoded}' does not match body value '${shown(bodyValue)}'`;
  }
  if (!toolParams) return undefined;
  const args = params?.["arguments"];
  for (const param of toolParams) {
    const raw = request.header(`mcp-param-${param.name.toLowerCase()}`);
    const bodyValue = valueAt(args, param.path);
    const present = bodyValue !== undefined && bodyValue !== null;
    if (raw === undefined) {
      if (present) return `missing Mcp-Param-${param.name} header`;
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Mcp-Param-${param.name} header has invalid characters or encoding`;
    if (!present || !sameValue(decoded, bodyValue))
      return `Mcp-Param-${param.name} header value does not match the body`;
  }
  return undefined;
}
