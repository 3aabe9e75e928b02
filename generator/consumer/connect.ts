/**
 * Connects to one server of a host config: stdio (command, args and env with placeholders filled in, the rest of
 * the environment limited to the runtime's safe default list) or Streamable HTTP (headers filled in; OAuth through
 * the runtime's OAuth client when the server answers 401, the user authorizing in a browser via a loopback
 * redirect; tokens kept in memory only). Every value filled in, and every literal env or header value of the
 * config, is a secret: `redact` removes them from anything printed.
 */
import { builtinRevisions, McpClient, type Transport } from "@mcp-gen/runtime";
import { loopbackAuthorizer, memoryStore, oauthFetch, type LoopbackAuthorizer } from "@mcp-gen/runtime/auth";
import { StreamableHttpClientTransport } from "@mcp-gen/runtime/http";
import { StdioClientTransport } from "@mcp-gen/runtime/node";
import type { ServerEntry } from "./host-config.ts";
import { expandPlaceholders, type PlaceholderContext } from "./placeholders.ts";

export interface ConnectOptions {
  readonly context: PlaceholderContext;
  /** Give up on a server that has not answered `initialize` and the lists within this many ms. */
  readonly timeoutMs: number;
  /** Client capabilities to declare. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Where the OAuth authorization URL is shown (default: stderr, by the loopback authorizer). */
  readonly showAuthorizationUrl?: (url: URL) => void;
}

export interface Connection {
  readonly client: McpClient;
  /** Values to redact from output (filled-in placeholders, literal env and header values). */
  readonly secrets: readonly string[];
  /** The tail of the server's stderr (stdio), redacted, for failure reasons. */
  stderrTail(): string;
  close(): Promise<void>;
}

/** A server that could not be reached; the message holds no secret. */
export class ConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectError";
  }
}

/** `text` with each secret (4 characters or more: shorter ones would mangle ordinary words) as `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length))
    out = out.split(secret).join("***");
  return out;
}

interface Filled {
  readonly values: Record<string, string>;
  readonly secrets: string[];
  readonly missing: string[];
}

/** Fills in a map's placeholders; every value counts as a secret (a literal one too). */
function fill(map: Readonly<Record<string, string>>, context: PlaceholderContext): Filled {
  const filled: Filled = { values: {}, secrets: [], missing: [] };
  for (const [key, raw] of Object.entries(map)) {
    const expanded = expandPlaceholders(raw, context);
    filled.values[key] = expanded.value;
    filled.secrets.push(raw, ...expanded.secrets, expanded.value);
    filled.missing.push(...expanded.missing);
  }
  return filled;
}

function fillText(text: string, context: PlaceholderContext, into: Filled): string {
  const expanded = expandPlaceholders(text, context);
  into.secrets.push(...expanded.secrets);
  into.missing.push(...expanded.missing);
  return expanded.value;
}

interface Opened {
  readonly transport: Transport;
  readonly secrets: readonly string[];
  readonly stderr: string[];
  readonly loopback?: LoopbackAuthorizer;
  /** The server's URL (HTTP), for failure reasons. */
  readonly url?: string;
}

async function open(entry: ServerEntry, options: ConnectOptions): Promise<Opened> {
  const { context } = options;
  if (entry.type === "stdio") {
    const env = fill(entry.env, context);
    const command = fillText(entry.command, context, env);
    const args = entry.args.map((a) => fillText(a, context, env));
    const cwd = entry.cwd === undefined ? undefined : fillText(entry.cwd, context, env);
    if (env.missing.length > 0) throw missingError(env.missing);
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command,
      args,
      extraEnv: env.values,
      cwd: cwd ?? context.workspaceFolder,
      stderr: "pipe",
      onStderr: (text) => {
        stderr.push(text);
        if (stderr.length > 50) stderr.shift();
      },
    });
    return { transport, secrets: env.secrets, stderr };
  }
  const headers = fill(entry.headers, context);
  const url = fillText(entry.url, context, headers);
  if (headers.missing.length > 0) throw missingError(headers.missing);
  const loopback = await loopbackAuthorizer({
    ...(options.showAuthorizationUrl ? { open: options.showAuthorizationUrl } : {}),
  });
  const fetch = oauthFetch({
    redirectUrl: loopback.redirectUrl,
    authorize: (u) => loopback.authorize(u),
    clientMetadata: { client_name: "mcp-gen" },
    store: memoryStore(),
  });
  const transport = new StreamableHttpClientTransport(url, { headers: headers.values, fetch });
  return { transport, secrets: headers.secrets, stderr: [], loopback, url };
}

function missingError(missing: readonly string[]): ConnectError {
  const names = [...new Set(missing)].map((m) => `\${${m}}`).join(", ");
  return new ConnectError(`no value for ${names} (set the environment variable, or MCP_INPUT_<ID> for an input)`);
}

/** An error's message and those of its causes (with their codes), each once: `fetch failed: connect ECONNREFUSED …`. */
export function reasonOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    const code = (current as { code?: unknown }).code;
    const text =
      typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
    if (text !== "" && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  return parts.join(": ");
}

/** Connects and initializes within `options.timeoutMs`; throws `ConnectError` (redacted) when it cannot. */
export async function connectServer(entry: ServerEntry, options: ConnectOptions): Promise<Connection> {
  const opened = await open(entry, options);
  const client = new McpClient({
    info: { name: "mcp-gen", version: "0.1.0" },
    revisions: builtinRevisions,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
  });
  // The last distinct lines (a client that retries another revision starts the server twice).
  const stderrTail = () => {
    const lines = [...new Set(opened.stderr.join("").trim().split("\n"))].slice(-3);
    return redact(lines.join(" | "), opened.secrets);
  };
  const close = async () => {
    await client.close().catch(() => undefined);
    await opened.loopback?.close().catch(() => undefined);
  };
  try {
    await withTimeout(client.connect(opened.transport), options.timeoutMs, "initialize");
  } catch (error) {
    await close();
    // The URL and the causes below "fetch failed" (connect ECONNREFUSED …): a stopped server says which and why.
    const where = opened.url === undefined ? "" : `${opened.url}: `;
    const reason = redact(`${where}${reasonOf(error)}`, opened.secrets);
    const tail = stderrTail();
    throw new ConnectError(tail ? `${reason} (stderr: ${tail})` : reason);
  }
  return { client, secrets: opened.secrets, stderrTail, close };
}

/** `work`, or a rejection naming `what` once `ms` have passed. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
