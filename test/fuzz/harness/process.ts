/**
 * Starting the attacked server as a real process (launch.ts) and watching it: is it still up, what did it write
 * to stderr, how big is its heap after a full GC.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgs } from "../../fixture-run.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// `node <build>` or `node --import tsx` (nodeArgs; not the tsx CLI, which runs a second process): signals and /proc
// then reach the server itself.

export interface ServerProcess {
  readonly child: ChildProcess;
  /** The MCP endpoint (http mode only). */
  readonly url: string;
  /** Everything written to stderr so far (bounded). */
  stderr(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** Heap used after two full GCs, in bytes (asked over SIGUSR2, answered on stderr). */
  heapAfterGc(): Promise<number>;
  /** VmRSS from /proc (bytes), or undefined where there is no /proc. */
  rss(): number | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `web`: the web handler under Bun (hostile.ts only; needs `bun`). */
  readonly mode: "stdio" | "http" | "web";
  /** The launcher in this folder (default launch.ts; hostile.ts for the server-input properties). */
  readonly launcher?: "launch.ts" | "hostile.ts";
  /** Extra environment (e.g. HOSTILE_SERVER, HOSTILE_HTTP for hostile.ts). */
  readonly env?: Readonly<Record<string, string>>;
  /** The Bun executable, for mode `web`. */
  readonly bun?: string;
  readonly httpOptions?: Record<string, unknown>;
  readonly auth?: { issuer: string; audience: string; jwks: unknown };
}

const MAX_STDERR = 256 * 1024;

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    FUZZ_HTTP_OPTIONS: JSON.stringify(options.httpOptions ?? {}),
    ...options.env,
  };
  if (options.auth) env["FUZZ_AUTH"] = JSON.stringify(options.auth);
  const script = path.join(root, "test/fuzz/harness", options.launcher ?? "launch.ts");
  const [file, args] = options.bun
    ? [options.bun, ["--conditions=@mcp-gen/source", script, options.mode]]
    : [process.execPath, [...nodeArgs(script), options.mode]];
  const child = spawn(file, args, {
    cwd: root,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let exited = false;
  const heapWaiters: Array<(n: number) => void> = [];
  child.once("exit", () => {
    exited = true;
  });
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-MAX_STDERR);
    for (const match of chunk.matchAll(/fuzz-heap (\d+)/g)) heapWaiters.shift()?.(Number(match[1]));
  });
  let url = "";
  if (options.mode !== "stdio") {
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        out += chunk;
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) {
          clearTimeout(timer);
          resolve(line.trim());
        }
      });
      child.once("exit", (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
    });
  }
  return {
    child,
    url,
    stderr: () => stderr,
    alive: () => !exited && child.exitCode === null && child.signalCode === null,
    heapAfterGc: () =>
      new Promise<number>((resolve, reject) => {
        if (exited) return reject(new Error("server process has exited"));
        const timer = setTimeout(() => reject(new Error("no heap report within 30 s")), 30_000);
        heapWaiters.push((n) => (clearTimeout(timer), resolve(n)));
        child.kill("SIGUSR2");
      }),
    rss: () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
        return kb === undefined ? undefined : Number(kb) * 1024;
      } catch {
        return undefined;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.stdin?.end();
        child.kill("SIGTERM");
      }),
  };
}

/** Heap growth allowed between two measurements after GC: generous for CI noise, small next to a real leak. */
export const HEAP_SLACK_BYTES = 12 * 1024 * 1024;
