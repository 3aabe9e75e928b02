/**
 * Reading one server of a host config as it is now (connect, list, close) and writing what `import --config`
 * writes for it (manifest, generated client). Shared by `import --config` and `check --live --update`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { ManifestError } from "../manifest/errors.ts";
import { parseManifest } from "../manifest/load-manifest.ts";
import { knownRevisions } from "../pipeline/known-revisions.ts";
import { writeFileAtomically } from "../pipeline/write.ts";
import { runGenerate, type CommandIo } from "../pipeline/run-generate.ts";
import { headerLine } from "../emit/generated-file.ts";
import type { UserModel } from "../manifest/user-model.ts";
import { formatTypeScript } from "../pipeline/format.ts";
import { AGENT_SURFACE_FILE, emitAgentSurface, estimatedTokens } from "./agent-surface.ts";
import { connectServer, ConnectError, redact, withTimeout } from "./connect.ts";
import { capabilityNotes, manifestOf, printable, readServed, type Served } from "./read-server.ts";
import type { HostConfig, ServerEntry } from "./host-config.ts";
import { replaceArgSecrets, replaceUrlSecrets, safeDecode } from "./literal-secrets.ts";
import { expandPlaceholders, type PlaceholderContext } from "./placeholders.ts";

/** How a manifest written by `import --config` starts: the mark that lets a later import replace it. */
export const MANIFEST_MARK = "# Imported by mcp-gen from server ";

export interface LiveRead {
  /** What the server serves, every field as listed (what the pins cover). */
  readonly served: Served;
  /** The manifest object written from it. */
  readonly manifest: Record<string, unknown>;
  readonly revision: string;
  readonly notes: readonly string[];
}

export interface ReadOptions {
  readonly context: PlaceholderContext;
  readonly timeoutMs: number;
  readonly runtimeImport: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly showAuthorizationUrl?: (url: URL) => void;
}

/** The context of a config: the process's environment, the config's workspace folder, the user's home. */
export function contextOf(config: HostConfig, inputs: Readonly<Record<string, string>> = {}): PlaceholderContext {
  return { env: process.env, inputs, workspaceFolder: config.workspaceFolder, userHome: os.homedir() };
}

/**
 * Every value of `config` that must never be printed or written: literal env and header values, literal
 * credentials in args and urls (`literal-secrets.ts`), and what the placeholders of env, headers, args, command and
 * url fill in to.
 */
export function secretsOf(config: HostConfig, context: PlaceholderContext): string[] {
  const secrets: string[] = [];
  for (const [name, entry] of config.servers) {
    const secretMap = entry.type === "stdio" ? entry.env : entry.headers;
    const other = entry.type === "stdio" ? [entry.command, ...entry.args, entry.cwd ?? ""] : [entry.url];
    for (const text of [...Object.values(secretMap), ...other]) {
      const expanded = expandPlaceholders(text, context);
      secrets.push(...expanded.secrets);
      if (Object.values(secretMap).includes(text)) secrets.push(text, expanded.value);
    }
    const literals =
      entry.type === "stdio" ? replaceArgSecrets(name, entry.args).found : replaceUrlSecrets(name, entry.url).found;
    secrets.push(...literals.flatMap((l) => [l.value, safeDecode(l.value)]));
  }
  return secrets.filter((s) => s !== "");
}

/** Connects to a server and reads what it serves now; throws `ConnectError` with a redacted reason. */
export async function readLive(entry: ServerEntry, options: ReadOptions): Promise<LiveRead> {
  const connection = await connectServer(entry, {
    context: options.context,
    timeoutMs: options.timeoutMs,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.showAuthorizationUrl ? { showAuthorizationUrl: options.showAuthorizationUrl } : {}),
  });
  try {
    const served = await withTimeout(readServed(connection.client), options.timeoutMs, "the lists");
    // How the client read it (its capabilities) is the caller's to say, once per run (`clientNote`).
    const notes = capabilityNotes(connection.client);
    return { served, manifest: manifestOf(served, options.runtimeImport), revision: connection.client.revision, notes };
  } catch (error) {
    if (error instanceof ConnectError) throw error;
    const reason = redact(error instanceof Error ? error.message : String(error), connection.secrets);
    throw new ConnectError(printable(reason));
  } finally {
    await connection.close();
  }
}

/** The manifest's YAML, headed with where it came from (the config's server name, never its command line). */
export function manifestText(name: string, configShown: string, manifest: Record<string, unknown>): string {
  return `${MANIFEST_MARK}${JSON.stringify(name)} of ${configShown}\n${stringify(manifest, { lineWidth: 0 })}`;
}

/** Why `file` must not be replaced (it exists and is not a manifest this command wrote), or undefined. */
export async function foreignManifest(file: string): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  const text = await readFile(file, "utf8");
  return text.startsWith(MANIFEST_MARK) ? undefined : `${file} exists and was not written by mcp-gen import --config`;
}

/**
 * Checks the manifest, writes it and generates its typed client. Returns the problems (empty: done). `secrets`
 * guard the text: a server that echoes a secret of the config in a definition is refused, not written.
 */
export async function writeServer(
  file: string,
  text: string,
  secrets: readonly string[],
  io: CommandIo,
): Promise<string[]> {
  if (redact(text, secrets) !== text)
    return ["the server's definitions contain a secret value of the config; nothing written"];
  const foreign = await foreignManifest(file);
  if (foreign) return [foreign];
  let model: UserModel;
  try {
    model = parseManifest(text, {
      file,
      displayPath: () => path.basename(file),
      knownRevisions: knownRevisions(),
    }).model;
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return error.lines().map((l) => `the server's definitions cannot be generated from: ${printable(l)}`);
  }
  await writeFileAtomically(file, text);
  const errors: string[] = [];
  const code = await runGenerate({ manifest: file, check: false }, { out: io.out, err: (l) => errors.push(l) });
  if (code !== 0) return errors.length > 0 ? errors : ["generation failed"];
  await writeAgentSurface(file, model, io);
  return [];
}

/** `api.d.ts` beside the manifest, replaced only when mcp-gen wrote it; prints its size in (estimated) tokens. */
async function writeAgentSurface(manifestFile: string, model: UserModel, io: CommandIo): Promise<void> {
  const file = path.join(path.dirname(manifestFile), AGENT_SURFACE_FILE);
  if (existsSync(file) && !(await readFile(file, "utf8")).startsWith(headerLine("").split(" from ")[0]!)) {
    io.err(`mcp-gen: ${file} exists and was not written by mcp-gen; not replaced`);
    return;
  }
  const header =
    `${headerLine(path.basename(manifestFile))}\n` +
    "// The server's API for code an agent writes: its typed client (connect() of the index) implements Api.\n\n";
  const text = await formatTypeScript(emitAgentSurface(model, header));
  await writeFileAtomically(file, text);
  io.out(`wrote ${AGENT_SURFACE_FILE} (${text.length} characters, about ${estimatedTokens(text)} tokens)`);
}
