/**
 * The index of an `import --config` folder: `servers` (how each server is started or reached, placeholders kept)
 * and `connect(name)`, which starts or reaches that server and returns its generated typed client. No secret is
 * written: a literal env value of the config becomes `${env:KEY}` (the variable of the same name), a literal header
 * value `${input:<server>.<Header>}` (the caller's `inputs`, else `MCP_INPUT_<SERVER>_<HEADER>`), a literal
 * credential in `args` or `url` `${input:<server>.<name>}` (the rule: `literal-secrets.ts`). The placeholder
 * rules are those of `placeholders.ts`, printed here because generated code imports only the runtime. An HTTP
 * server that answers 401 is authorized by the runtime's OAuth client (loopback redirect, tokens in memory only).
 */
import { createPrinter } from "../emit/printer.ts";
import { blockCommentText, commentText, headerLine } from "../emit/generated-file.ts";
import { relativeModule } from "../emit/runtime-symbols.ts";
import type { ServerEntry } from "./host-config.ts";
import { replaceArgSecrets, replaceUrlSecrets, type Literal } from "./literal-secrets.ts";
import { hasPlaceholder } from "./placeholders.ts";

export interface IndexServer {
  readonly name: string;
  readonly entry: ServerEntry;
  /** The generated folder's index module, relative to the index (`./github/generated/index.js`). */
  readonly module: string;
}

export interface IndexInput {
  /** The host config as the header names it (relative to the index). */
  readonly config: string;
  /** Specifiers of the runtime's core, `/node`, `/http` and `/auth` entries as seen from the index. */
  readonly runtime: { readonly core: string; readonly node: string; readonly http: string; readonly auth: string };
  readonly servers: readonly IndexServer[];
}

/** What a literal (secret) value of the config is written as, and a note saying so (names only, no value). */
export interface Replacement {
  readonly server: string;
  readonly note: string;
}

/** The entry as the index writes it: literal env and header values replaced by placeholders. */
export function writtenEntry(name: string, entry: ServerEntry, notes: Replacement[]): ServerEntry {
  if (entry.type === "stdio") {
    const env = Object.fromEntries(
      Object.entries(entry.env).map(([key, value]) => {
        if (hasPlaceholder(value)) return [key, value];
        notes.push({ server: name, note: `env ${key} is a literal in the config: the index reads it from $${key}` });
        return [key, `\${env:${key}}`];
      }),
    );
    const args = replaceArgSecrets(name, entry.args);
    for (const f of args.found) notes.push(literalNote(name, f));
    return { ...entry, env, args: args.args };
  }
  const headers = Object.fromEntries(
    Object.entries(entry.headers).map(([key, value]) => {
      if (hasPlaceholder(value)) return [key, value];
      const id = `${name}.${key}`;
      notes.push({
        server: name,
        note: `header ${key} is a literal in the config: the index reads it from connect()'s inputs["${id}"]`,
      });
      return [key, `\${input:${id}}`];
    }),
  );
  const url = replaceUrlSecrets(name, entry.url);
  for (const f of url.found) notes.push(literalNote(name, f));
  return { ...entry, headers, url: url.url };
}

const literalNote = (server: string, literal: Literal): Replacement => ({
  server,
  note: `${literal.where} is a literal credential in the config: the index reads it from connect()'s inputs["${literal.id}"]`,
});

const CONNECT = `
export type ServerName = keyof typeof servers;
/** The typed client of server \`N\`, with \`close()\`. */
export type ClientOf<N extends ServerName> = ReturnType<(typeof clients)[N]> & { close(): Promise<void> };

export interface ConnectOptions {
  /** Where \`\${env:…}\` and \`\${NAME}\` placeholders are read (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Values of \`\${input:id}\` placeholders (default: the variable MCP_INPUT_<ID>). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** \`\${workspaceFolder}\`, and where a stdio server starts (default: the current folder). */
  readonly workspaceFolder?: string;
  /** The fetch of HTTP servers (default: plain fetch behind the runtime's OAuth client, see \`oauth\`). */
  readonly fetch?: typeof fetch;
  /**
   * When no \`fetch\` is given, an HTTP server that answers 401 is authorized by the runtime's OAuth client: the
   * user approves in a browser and comes back to a loopback redirect on 127.0.0.1 (listening from the first 401 to
   * \`close\`; a server that never asks opens no listener); \`open\` shows the URL (default: printed on stderr).
   * Tokens stay in memory, per connection, never written. \`false\`: no authorization (a 401 fails the connection).
   */
  readonly oauth?: false | (LoopbackOptions & { readonly clientName?: string });
}

/**
 * The fetch of an HTTP connection and what to close with it. Plain fetch until the server first answers 401; from
 * then on the OAuth client's, whose loopback redirect listener starts only then (the request is sent again through it;
 * the transport's bodies are strings).
 */
function httpFetch(options: ConnectOptions): { fetch?: typeof fetch; close(): Promise<void> } {
  if (options.fetch) return { fetch: options.fetch, close: async () => undefined };
  if (options.oauth === false) return { close: async () => undefined };
  const oauth = options.oauth ?? {};
  let authorized: Promise<{ fetch: typeof fetch; loopback: LoopbackAuthorizer }> | undefined;
  const authorize = async () => {
    const loopback = await loopbackAuthorizer(oauth);
    const fetch = oauthFetch({
      redirectUrl: loopback.redirectUrl,
      authorize: (url) => loopback.authorize(url),
      clientMetadata: { client_name: oauth.clientName ?? "mcp-gen-index" },
      store: memoryStore(),
    });
    return { fetch, loopback };
  };
  const lazyFetch: typeof fetch = async (input, init) => {
    if (!authorized) {
      const response = await fetch(input, init);
      if (response.status !== 401) return response;
      await response.body?.cancel();
      authorized ??= authorize();
    }
    return (await authorized).fetch(input, init);
  };
  const close = async () => {
    const started = await authorized?.catch(() => undefined);
    await started?.loopback.close();
  };
  return { fetch: lazyFetch, close };
}

function expand(text: string, options: ConnectOptions): string {
  const env = options.env ?? process.env;
  const input = (id: string) =>
    options.inputs?.[id] ?? env[\`MCP_INPUT_\${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}\`];
  return text.replace(/\\$\\{([^}]*)\\}/g, (whole, body: string) => {
    const named = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
    const value =
      body === "workspaceFolder" ? (options.workspaceFolder ?? process.cwd())
      : body === "userHome" ? os.homedir()
      : body.startsWith("env:") ? env[body.slice(4)]
      : body.startsWith("input:") ? input(body.slice(6))
      : named ? (env[named[1]!] ?? named[2])
      : undefined;
    if (value === undefined) throw new Error(\`connect: no value for \${whole}\`);
    return value;
  });
}

const fillAll = (map: Readonly<Record<string, string>>, options: ConnectOptions): Record<string, string> =>
  Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, options)]));

/** Starts or reaches server \`name\` as the config says and returns its typed client (call \`close()\` when done). */
export async function connect<N extends ServerName>(name: N, options: ConnectOptions = {}): Promise<ClientOf<N>> {
  // Widened on purpose: an annotation would narrow to the kinds this config has (an index of HTTP servers only).
  const spec = servers[name] as ServerSpec;
  let closeHttp = async (): Promise<void> => undefined;
  let transport: StdioClientTransport | StreamableHttpClientTransport;
  if (spec.type === "stdio") {
    transport = new StdioClientTransport({
      command: expand(spec.command, options),
      args: spec.args.map((a) => expand(a, options)),
      extraEnv: fillAll(spec.env, options),
      cwd: spec.cwd !== undefined ? expand(spec.cwd, options) : (options.workspaceFolder ?? process.cwd()),
      stderr: "ignore",
    });
  } else {
    const url = expand(spec.url, options);
    const headers = fillAll(spec.headers, options);
    const http = httpFetch(options);
    closeHttp = http.close;
    transport = new StreamableHttpClientTransport(url, { headers, ...(http.fetch ? { fetch: http.fetch } : {}) });
  }
  const client = new McpClient({ info: { name: "mcp-gen-index", version: "1.0.0" }, revisions: builtinRevisions });
  const close = async () => {
    await client.close();
    await closeHttp();
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const typed = clients[name](client) as ReturnType<(typeof clients)[N]>;
  return Object.assign(typed, { close });
}
`;

const SPEC_TYPE = `
type ServerSpec =
  | {
      readonly type: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | { readonly type: "http" | "sse"; readonly url: string; readonly headers: Readonly<Record<string, string>> };
`;

/** A server's name as an object literal key: `__proto__` computed, as a literal key would set the prototype. */
const nameKey = (name: string) => (name === "__proto__" ? '["__proto__"]' : JSON.stringify(name));

/** The index file's text (unformatted). */
export function emitIndex(input: IndexInput): string {
  const p = createPrinter({ runtime: () => input.runtime.core, siblingExtension: "" });
  const value = (name: string, specifier: string) => ({ name, from: { kind: "runtime-module", specifier } }) as const;
  // CONNECT names these; recorded as value uses so the printer imports them.
  p.use(value("McpClient", input.runtime.core));
  p.use(value("builtinRevisions", input.runtime.core));
  p.use(value("StdioClientTransport", input.runtime.node));
  p.use(value("StreamableHttpClientTransport", input.runtime.http));
  for (const name of ["loopbackAuthorizer", "memoryStore", "oauthFetch"]) p.use(value(name, input.runtime.auth));
  p.use({ name: "LoopbackOptions", from: { kind: "runtime-module", specifier: input.runtime.auth }, typeOnly: true });
  p.use({
    name: "LoopbackAuthorizer",
    from: { kind: "runtime-module", specifier: input.runtime.auth },
    typeOnly: true,
  });
  p.use(relativeModule("os", "node:os"));
  p.print(SPEC_TYPE);
  p.print(
    `/** The servers of ${blockCommentText(input.config)}; \`\${…}\` placeholders are filled in by \`connect\`, never stored. */`,
  );
  p.print("export const servers = {");
  for (const s of input.servers) p.print(`  ${nameKey(s.name)}: ${JSON.stringify(s.entry)},`);
  p.print("} as const satisfies Record<string, ServerSpec>;");
  p.print("");
  p.print("const clients = {");
  input.servers.forEach((s, i) => {
    p.print(`  ${nameKey(s.name)}: `, relativeModule(`server${i}`, s.module), ".createClient,");
  });
  p.print("};");
  p.print(CONNECT);
  return p.render(
    `${headerLine(input.config)}\n// Regenerate with: mcp-gen import --config ${commentText(input.config)}\n\n`,
  );
}
