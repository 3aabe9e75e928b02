/**
 * The MCP host configs people already have, read into one list of servers. Formats:
 *
 * - `mcpServers` maps (`.mcp.json` of Claude Code, `claude_desktop_config.json`, `.cursor/mcp.json`, Windsurf's
 *   `serverUrl`): `{ "mcpServers": { name: { command, args, env, cwd } | { type?, url, headers } } }`;
 * - `servers` maps with `inputs` (`.vscode/mcp.json`): `{ "servers": { name: { type: "stdio" | "http" | "sse",
 *   command, args, env, cwd, url, headers } }, "inputs": [{ id, type, description, password }] }`.
 *
 * Values are kept exactly as written, `${…}` placeholders included (`placeholders.ts` fills them in at connect time
 * only). A malformed entry is reported by name and the other entries still load.
 */
import path from "node:path";

export interface StdioServerEntry {
  readonly type: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface HttpServerEntry {
  /** `sse` is the legacy HTTP+SSE transport (the runtime's HTTP client falls back to it itself). */
  readonly type: "http" | "sse";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type ServerEntry = StdioServerEntry | HttpServerEntry;

export interface HostConfig {
  /** The config file, absolute. */
  readonly file: string;
  /** What `${workspaceFolder}` means: the folder above `.vscode/` or `.cursor/`, else the config's own folder. */
  readonly workspaceFolder: string;
  readonly servers: ReadonlyMap<string, ServerEntry>;
  /** Entries that could not be read, by server name, with why. */
  readonly invalid: ReadonlyMap<string, string>;
  /** VS Code `inputs` ids (the values come from `MCP_INPUT_<ID>` or the caller, never from the config). */
  readonly inputs: readonly string[];
}

/** A config that cannot be read at all (not JSON, no server map). */
export class HostConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostConfigError";
  }
}

type Json = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") throw new Error(`${what}.${key} must be a string`);
    out[key] = v;
  }
  return out;
}

function entryOf(raw: unknown): ServerEntry {
  if (!isObject(raw)) throw new Error("not an object");
  const type = raw["type"];
  const url = raw["url"] ?? raw["serverUrl"];
  if (typeof raw["command"] === "string" && (type === undefined || type === "stdio")) {
    const args = raw["args"] ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw new Error("args must be strings");
    if (raw["cwd"] !== undefined && typeof raw["cwd"] !== "string") throw new Error("cwd must be a string");
    return {
      type: "stdio",
      command: raw["command"],
      args,
      env: stringMap(raw["env"], "env"),
      ...(typeof raw["cwd"] === "string" ? { cwd: raw["cwd"] } : {}),
    };
  }
  if (typeof url === "string" && (type === undefined || ["http", "streamable-http", "sse"].includes(String(type))))
    return { type: type === "sse" ? "sse" : "http", url, headers: stringMap(raw["headers"], "headers") };
  if (type !== undefined && !["stdio", "http", "streamable-http", "sse"].includes(String(type)))
    throw new Error(`unknown type ${JSON.stringify(type)}`);
  throw new Error(type === "stdio" ? "a stdio server needs a command" : "needs a command or a url");
}

/** Reads a host config's text; `file` is its path (for `${workspaceFolder}` and messages). */
export function parseHostConfig(text: string, file: string): HostConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HostConfigError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(json)) throw new HostConfigError(`${file} is not a JSON object`);
  const map = json["mcpServers"] ?? json["servers"];
  if (!isObject(map))
    throw new HostConfigError(`${file} has no "mcpServers" (Claude, Cursor) or "servers" (VS Code) object`);
  const servers = new Map<string, ServerEntry>();
  const invalid = new Map<string, string>();
  for (const [name, raw] of Object.entries(map)) {
    try {
      servers.set(name, entryOf(raw));
    } catch (error) {
      invalid.set(name, error instanceof Error ? error.message : String(error));
    }
  }
  const inputs = Array.isArray(json["inputs"])
    ? json["inputs"].filter(isObject).flatMap((i) => (typeof i["id"] === "string" ? [i["id"]] : []))
    : [];
  const absolute = path.resolve(file);
  const folder = path.dirname(absolute);
  const workspaceFolder = [".vscode", ".cursor"].includes(path.basename(folder)) ? path.dirname(folder) : folder;
  return { file: absolute, workspaceFolder, servers, invalid, inputs };
}
