/**
 * The client side of stdio: spawns the server, speaks newline-delimited JSON-RPC on its stdin/stdout, and shuts it
 * down as the spec describes (close stdin, wait, SIGTERM, wait, SIGKILL).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { statSync } from "node:fs";
import { LineWriter, readLines } from "./streams.ts";
import type { ReopenableTransport, TransportSink } from "./transport.ts";
import { spawnPlan } from "./windows-command.ts";

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** Environment variables passed to the server when `env` is not given (others could leak secrets). */
export const DEFAULT_INHERITED_ENV: readonly string[] =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG"];

export interface StdioClientTransportOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** The server's whole environment. Default: the variables in `DEFAULT_INHERITED_ENV`, plus `extraEnv`. */
  readonly env?: Readonly<Record<string, string>>;
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** `inherit` (default) forwards the server's stderr to ours; `pipe` hands it to `onStderr` (or drops it); `ignore` drops it. */
  readonly stderr?: "inherit" | "pipe" | "ignore";
  readonly onStderr?: (text: string) => void;
  /** Largest accepted message in bytes (default 64 MiB); longer lines are dropped and reported. */
  readonly maxMessageBytes?: number;
  /** How long to wait after closing stdin, and again after SIGTERM, before escalating. Default 2000 ms. */
  readonly shutdownGraceMs?: number;
}

/** How the server's process ended: its exit code, or the signal that ended it. */
export interface StdioExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export class StdioClientTransport implements ReopenableTransport {
  private child: ChildProcessWithoutNullStreams | undefined;
  private status: StdioExitStatus | undefined;
  private writer: LineWriter | undefined;
  private sink: TransportSink | undefined;
  private closing = false;
  private shutdown: Promise<void> | undefined;
  /** The process is gone. */
  private exited: Promise<void> | undefined;
  /** Its stdio is closed too (a grandchild may hold stdout/stderr open longer, see `release`). */
  private drained: Promise<void> | undefined;

  constructor(private readonly options: StdioClientTransportOptions) {}

  /** A new, unstarted transport for the same command (used when a legacy server exits on the era probe). */
  reopen(): StdioClientTransport {
    return new StdioClientTransport(this.options);
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the server's process ended (e.g. `{ code: 0 }` after closing stdin, `{ signal: "SIGKILL" }`); undefined while it runs. */
  get exitStatus(): StdioExitStatus | undefined {
    return this.status;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.child) throw new Error("StdioClientTransport already started");
    const o = this.options;
    const env = { ...(o.env ?? inheritedEnv()), ...o.extraEnv };
    const cwd = o.cwd ?? process.cwd();
    // On Windows `npx` is `npx.cmd`: found through PATH/PATHEXT and run by cmd.exe (windows-command.ts).
    const plan = spawnPlan(o.command, o.args ?? [], process.platform, { env, cwd, isFile });
    const child = spawn(plan.file, [...plan.args], {
      env,
      cwd,
      windowsVerbatimArguments: plan.verbatim,
      stdio: ["pipe", "pipe", o.stderr === "pipe" ? "pipe" : (o.stderr ?? "inherit")],
      windowsHide: true,
    }) as ChildProcessWithoutNullStreams;
    this.child = child;
    this.sink = sink;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    this.drained = new Promise((resolve) => child.once("close", () => resolve()));
    try {
      await once(child, "spawn");
    } catch (error) {
      this.sink = undefined;
      this.child = undefined;
      throw new Error(`cannot start MCP server "${o.command}": ${(error as Error).message}`, { cause: error });
    }
    this.writer = new LineWriter(child.stdin);
    child.stdin.on("error", () => undefined); // EPIPE after the server died; reported through "exit".
    // A piped stderr is always read: an unread pipe fills up and blocks the server's next write.
    if (child.stderr) child.stderr.on("data", (chunk: Buffer) => o.onStderr?.(chunk.toString("utf8")));
    readLines(
      child.stdout,
      (line) => this.sink?.receive(line),
      () => undefined,
      (bytes) => this.sink?.malformed?.(`message of ${bytes} bytes exceeds the size limit`),
      o.maxMessageBytes,
    );
    child.once("exit", (code, signal) => {
      this.status = { code, signal };
      if (this.closing) return; // close() finishes
      const why = signal ? `signal ${signal}` : `exit code ${code}`;
      // Deliver what it wrote before exiting, then report the unexpected end.
      void this.release().then(() => this.finish(new Error(`MCP server process exited (${why})`)));
    });
  }

  send(message: object): Promise<void> {
    if (!this.writer) return Promise.reject(new Error("StdioClientTransport not started"));
    return this.writer.write(message);
  }

  /** Ends the server as the spec says; every call returns the same shutdown. */
  close(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    return (this.shutdown ??= this.shutDown(child));
  }

  private async shutDown(child: ChildProcessWithoutNullStreams): Promise<void> {
    this.closing = true;
    const grace = this.grace;
    this.writer?.flush(); // what was sent this turn goes out before stdin ends
    child.stdin.end();
    if (!(await settlesWithin(this.exited, grace))) {
      child.kill("SIGTERM");
      if (!(await settlesWithin(this.exited, grace))) {
        child.kill("SIGKILL");
        await this.exited;
      }
    }
    await this.release();
    this.finish();
  }

  private get grace(): number {
    return this.options.shutdownGraceMs ?? 2000;
  }

  /**
   * After the process exited: waits (up to the grace period) for the rest of its output, then lets go of its stdio,
   * which a grandchild that inherited it may keep open indefinitely.
   */
  private async release(): Promise<void> {
    const child = this.child;
    if (!child || (await settlesWithin(this.drained, this.grace))) return;
    child.stdout.destroy();
    child.stderr?.destroy();
  }

  private finish(error?: Error): void {
    const sink = this.sink;
    if (!sink) return;
    this.sink = undefined;
    sink.closed(error);
  }
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

async function settlesWithin(exited: Promise<void> | undefined, ms: number): Promise<boolean> {
  if (!exited) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([exited.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}
