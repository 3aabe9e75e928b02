/**
 * Starts one bundle under workerd, Deno or Bun (their npm packages' binaries), copied alone into an empty temporary
 * folder, so nothing outside the bundle (no node_modules, no package.json) can be loaded. A process that exits or
 * never answers fails with its own output, so a failing test says why the platform refused the bundle.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Platform } from "./bundle.ts";
import { onFreePorts } from "../free-port.ts";
import { EDGE_BIN } from "./runtimes.ts";

const BIN = EDGE_BIN;

/** The compatibility date docs/deploying.md states for Workers; no compatibility flags. */
export const COMPATIBILITY_DATE = "2026-11-01";
/** The request-state key every isolate shares (an environment secret on Workers). */
export const SHARED_STATE_KEY = "edge-harness-shared-request-state-key-0123456789";

export type Running = {
  /** The MCP endpoint of each listening socket (two for the two-isolate workerd setup). */
  readonly urls: readonly string[];
  readonly output: () => string;
  readonly stop: () => Promise<void>;
};

/**
 * workerd's config: one service per port, each its own isolate running the same module, each on its own socket, all
 * with the shared request-state key unless `keys` gives each its own.
 */
function workerdConfig(ports: readonly number[], keys: readonly string[]): string {
  const worker = (key: string) => `(
    modules = [(name = "worker.js", esModule = embed "worker.js")],
    compatibilityDate = "${COMPATIBILITY_DATE}",
    bindings = [(name = "MCP_REQUEST_STATE_KEY", text = "${key}")],
  )`;
  const services = ports.map((_, i) => `(name = "mcp${i}", worker = ${worker(keys[i] ?? SHARED_STATE_KEY)})`);
  const sockets = ports.map(
    (port, i) => `(name = "http${i}", address = "127.0.0.1:${port}", http = (), service = "mcp${i}")`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${services.join(", ")}],
  sockets = [${sockets.join(", ")}],
);
`;
}

function command(
  platform: Platform,
  ports: readonly number[],
): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env = { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? tmpdir(), PORT: String(ports[0]) };
  switch (platform) {
    case "workerd":
      return { file: join(BIN, "workerd"), args: ["serve", "config.capnp"], env };
    case "deno":
      // --cached-only: nothing is fetched; --no-config: no deno.json is looked for.
      return {
        file: join(BIN, "deno"),
        args: ["run", "--allow-net", "--allow-env", "--cached-only", "--no-config", "server.js"],
        env: { ...env, DENO_NO_UPDATE_CHECK: "1" },
      };
    case "bun":
      return { file: join(BIN, "bun"), args: ["run", "--no-install", "server.js"], env };
  }
}

/** Waits until `url` answers anything at all over HTTP. */
async function waitUntilListening(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the process exited (${child.exitCode ?? child.signalCode}) before listening:\n${output()}`);
    }
    try {
      await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing listening at ${url} after ${timeoutMs} ms:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Runs `bundleFile` under `platform` from an empty folder. workerd serves `isolates` isolates (separate services of
 * the same module), each on its own port (`keys`: a request-state key per isolate instead of the shared one); Deno
 * and Bun serve one process.
 */
export function start(
  platform: Platform,
  bundleFile: string,
  isolates = 1,
  keys: readonly string[] = [],
): Promise<Running> {
  // Free ports; new ones when one was taken before the platform bound it (the process exits saying so).
  return onFreePorts(platform === "workerd" ? isolates : 1, (ports) => startOn(ports, platform, bundleFile, keys));
}

async function startOn(
  ports: readonly number[],
  platform: Platform,
  bundleFile: string,
  keys: readonly string[],
): Promise<Running> {
  const folder = mkdtempSync(join(tmpdir(), `mcp-edge-${platform}-`));
  if (platform === "workerd") {
    copyFileSync(bundleFile, join(folder, "worker.js"));
    writeFileSync(join(folder, "config.capnp"), workerdConfig(ports, keys));
  } else {
    copyFileSync(bundleFile, join(folder, "server.js"));
  }
  const { file, args, env } = command(platform, ports);
  const child = spawn(file, args, { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const output = () => `[${platform} in ${folder}]\n${text.slice(-4000)}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const urls = ports.map((port) => `http://127.0.0.1:${port}/mcp`);
  try {
    for (const url of urls) await waitUntilListening(url, child, output, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, output, stop };
}
