/** `mcp-gen import`'s connection options (`--header`, `--revision`, `--capabilities`), parsed and checked. */
import { knownRevisions } from "../pipeline/known-revisions.ts";

export interface ImportOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly revision?: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** RFC 9110 token characters: a header name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible characters, spaces and tabs: a header value (no CR/LF, so no header injection). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Headers mcp-gen's HTTP transport sets itself: overriding them would break the connection. */
const RESERVED = new Set([
  "content-type",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "content-length",
  "host",
]);

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new Error(`--header ${JSON.stringify(text)}: use "Name: value"`);
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!HEADER_NAME.test(name)) throw new Error(`--header: ${JSON.stringify(name)} is not a valid header name`);
  if (!HEADER_VALUE.test(value)) throw new Error(`--header ${name}: the value holds control characters`);
  if (RESERVED.has(name.toLowerCase())) throw new Error(`--header ${name}: set by mcp-gen itself; cannot be replaced`);
  return [name, value];
}

export function parseImportOptions(args: {
  readonly url?: string;
  readonly header?: readonly string[];
  readonly revision?: string;
  readonly capabilities?: string;
}): ImportOptions {
  const headers: Record<string, string> = {};
  for (const text of args.header ?? []) {
    if (args.url === undefined) throw new Error("--header applies to --url only (a stdio server has no headers)");
    const [name, value] = parseHeader(text);
    headers[name] = value;
  }
  let capabilities: Record<string, unknown> = {};
  if (args.capabilities !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args.capabilities);
    } catch {
      throw new Error(`--capabilities is not JSON: ${JSON.stringify(args.capabilities)}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error('--capabilities must be a JSON object, e.g. \'{"sampling":{},"elicitation":{}}\'');
    capabilities = parsed as Record<string, unknown>;
  }
  if (args.revision !== undefined && !knownRevisions().includes(args.revision))
    throw new Error(`--revision: unknown protocol revision "${args.revision}" (known: ${knownRevisions().join(", ")})`);
  return { headers, capabilities, ...(args.revision !== undefined ? { revision: args.revision } : {}) };
}
