/**
 * `mcp-gen check --live [--lock mcp-servers/mcp.lock.json]`: connects to every server a lock pins (started or
 * reached as its host config says) and compares what each serves now with its pins, classifying each change as
 * breaking, descriptive or additive (`consumer/rules.ts`). Output: text, JSON or SARIF 2.1.0 (`--format`, to stdout
 * or `--output`). Exit code: bits OR-ed, 0 when everything matches: 1 a server could not be checked, 2 breaking,
 * 4 descriptive, 8 additive. `--update` rewrites the manifests, generated clients and pins of the servers that
 * changed (deliberately: it prints what it accepted) and exits 0 unless a server could not be checked.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { stableJson } from "../emit/generated-file.ts";
import { writeFileAtomically } from "../pipeline/write.ts";
import type { CommandIo } from "../pipeline/run-generate.ts";
import { printable } from "../consumer/read-server.ts";
import { classify } from "../consumer/classify.ts";
import { ConnectError, redact } from "../consumer/connect.ts";
import { pinsOf } from "../consumer/contract.ts";
import { parseHostConfig, type HostConfig } from "../consumer/host-config.ts";
import { contextOf, manifestText, readLive, secretsOf, writeServer, type LiveRead } from "../consumer/live.ts";
import { lockText, readLock, relativeToLock, type Lock } from "../consumer/lock.ts";
import { exitCode, jsonReport, sarifReport, textReport, type ServerOutcome } from "../consumer/report.ts";

export interface CheckLiveArgs {
  readonly live: boolean;
  readonly lock: string;
  readonly config?: string;
  readonly server?: readonly string[];
  readonly format: "text" | "json" | "sarif";
  readonly output?: string;
  readonly update: boolean;
  readonly timeout: number;
}

/** A path as shown to the user and in reports: relative to the current folder, `/`-separated. */
const shown = (file: string) => path.relative(process.cwd(), path.resolve(file)).split(path.sep).join("/");

interface Checked {
  readonly outcome: ServerOutcome;
  /** The live read, when the server answered and differs from its pins. */
  readonly changed?: LiveRead;
}

async function checkOne(name: string, lock: Lock, lockFile: string, config: HostConfig, args: CheckLiveArgs) {
  const locked = lock.servers[name]!;
  const manifestFile = path.resolve(path.dirname(lockFile), locked.manifest);
  const base = { server: name, manifest: shown(manifestFile) };
  const fail = (failure: string): Checked => ({ outcome: { ...base, failure, changes: [] } });
  const entry = config.servers.get(name);
  if (!entry) return fail(config.invalid.get(name) ?? `not in ${shown(config.file)}`);
  if (!existsSync(manifestFile)) return fail(`its manifest ${base.manifest} is missing`);
  let committed: Record<string, unknown>;
  try {
    committed = parse(await readFile(manifestFile, "utf8")) as Record<string, unknown>;
  } catch (error) {
    return fail(`its manifest ${base.manifest} is not YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof committed !== "object" || committed === null) return fail(`its manifest ${base.manifest} is empty`);
  try {
    const live = await readLive(entry, {
      context: contextOf(config),
      timeoutMs: args.timeout,
      runtimeImport: String((committed["generate"] as { runtimeImport?: unknown })?.runtimeImport ?? ""),
    });
    const changes = classify(name, { pins: locked, manifest: committed }, live);
    return { outcome: { ...base, changes }, ...(changes.length > 0 ? { changed: live } : {}) };
  } catch (error) {
    if (!(error instanceof ConnectError)) throw error;
    return fail(printable(error.message));
  }
}

/** Accepts the live definitions of the changed servers: manifest, generated client and pins rewritten. */
async function update(
  checked: readonly Checked[],
  lock: Lock,
  lockFile: string,
  config: HostConfig,
  secrets: readonly string[],
  io: CommandIo,
): Promise<boolean> {
  let ok = true;
  for (const { outcome, changed } of checked) {
    if (!changed) continue;
    const locked = lock.servers[outcome.server]!;
    const file = path.resolve(path.dirname(lockFile), locked.manifest);
    const text = manifestText(outcome.server, relativeToLock(file, config.file), changed.manifest);
    const problems = await writeServer(file, text, secrets, io);
    for (const p of problems) io.err(`mcp-gen: ${outcome.server}: not updated: ${p}`);
    if (problems.length > 0) {
      ok = false;
      continue;
    }
    lock.servers[outcome.server] = { manifest: locked.manifest, ...pinsOf(changed, changed.revision) };
    io.out(`mcp-gen: ${outcome.server}: accepted ${outcome.changes.length} changes; pins updated`);
  }
  await writeFileAtomically(path.resolve(lockFile), lockText(lock));
  return ok;
}

/** The report, with the config's secrets redacted (a server may echo one) and text lines made printable. */
async function emit(
  outcomes: readonly ServerOutcome[],
  args: CheckLiveArgs,
  secrets: readonly string[],
  io: CommandIo,
): Promise<void> {
  const report =
    args.format === "text"
      ? `${textReport(outcomes).map(printable).join("\n")}\n`
      : stableJson(args.format === "json" ? jsonReport(outcomes) : sarifReport(outcomes));
  const text = redact(report, secrets);
  if (args.output !== undefined) {
    await writeFileAtomically(path.resolve(args.output), text);
    io.err(`mcp-gen: wrote ${args.output}`);
  } else for (const line of text.trimEnd().split("\n")) io.out(line);
}

export async function runCheckLive(args: CheckLiveArgs, io: CommandIo): Promise<number> {
  if (!args.live) {
    io.err("mcp-gen: check compares the servers a lock pins with what they serve now: give --live");
    return 1;
  }
  let lock: Lock;
  let config: HostConfig;
  try {
    lock = await readLock(args.lock);
    const configFile = args.config ?? path.resolve(path.dirname(path.resolve(args.lock)), lock.config);
    config = parseHostConfig(await readFile(configFile, "utf8"), configFile);
  } catch (error) {
    io.err(`mcp-gen: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const secrets = secretsOf(config, contextOf(config));
  const safe: CommandIo = { out: (l) => io.out(redact(l, secrets)), err: (l) => io.err(redact(l, secrets)) };
  const unknown = (args.server ?? []).filter((s) => !(s in lock.servers));
  if (unknown.length > 0) {
    safe.err(`mcp-gen: --server ${unknown.join(", ")}: not pinned in ${args.lock}`);
    return 1;
  }
  const names = Object.keys(lock.servers).filter((n) => args.server === undefined || args.server.includes(n));
  const checked: Checked[] = [];
  for (const name of names) checked.push(await checkOne(name, lock, args.lock, config, args));
  const outcomes = checked.map((c) => c.outcome);
  await emit(outcomes, args, secrets, safe);
  if (!args.update) return exitCode(outcomes);
  const updated = await update(checked, lock, args.lock, config, secrets, safe);
  return updated && outcomes.every((o) => o.failure === undefined) ? 0 : 1;
}
