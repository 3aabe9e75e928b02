/**
 * The topology of a shared deployment, started by the tests without Docker (examples/scale/compose.yaml is the same
 * with Docker): a real `redis-server` on a free loopback port (a temp dir, no persistence), N server processes
 * (test/scale/instance.ts) and a round-robin proxy that sends each HTTP request to the next instance, SSE unbuffered.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgs } from "../fixture-run.ts";
import { onFreePort } from "../free-port.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The server binary: `MCP_SCALE_REDIS_SERVER` when set (e.g. `valkey-server`, to run the same tests against Valkey),
 * else redis-server. Fails (never skips) when redis-server is missing, saying how to get it.
 */
export function redisServerPath(): string {
  const chosen = process.env["MCP_SCALE_REDIS_SERVER"];
  if (chosen) return chosen;
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const file = found.stdout.trim();
  if (found.status !== 0 || file === "")
    throw new Error(
      "redis-server is not installed: the scale tests need a real Redis. Install it with `apt-get install -y redis-server` (Debian/Ubuntu; .ci/run does this) or `brew install redis`.",
    );
  return file;
}

export class RedisProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(path.join(tmpdir(), "mcp-scale-redis-"));
  /** The port it listens on: picked by the first `start()` unless given; a restart binds the same one again. */
  port: number;
  /** `args`: more redis-server options (`--cluster-enabled yes`, `--maxmemory-policy noeviction`, ...). */
  constructor(
    port?: number,
    private readonly args: readonly string[] = [],
  ) {
    this.port = port ?? 0;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server; the first start without a given port takes a free one (another if it is taken meanwhile). */
  async start(): Promise<void> {
    if (this.port !== 0) return this.startOn(this.port);
    await onFreePort(async (port) => {
      this.port = port;
      await this.startOn(port);
    });
  }

  private async startOn(port: number): Promise<void> {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...this.args];
    const child = spawn(redisServerPath(), [...args, "--dir", this.dir], { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 30_000);
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  }

  /** SIGSTOP: Redis holds its connections open and answers nothing (a hung server); `resume()` undoes it. */
  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  resume(): void {
    this.child?.kill("SIGCONT");
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export class InstanceProcess {
  url = "";
  stderr = "";
  private child: ChildProcess | undefined;
  constructor(
    readonly id: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const script = path.join(root, "test/scale/instance.ts");
    const child = spawn(process.execPath, nodeArgs(script), {
      cwd: root,
      env: { ...process.env, ...this.env, INSTANCE_ID: this.id },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-65_536)));
    this.url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`instance ${this.id} did not start: ${this.stderr}`)), 60_000);
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        out += chunk;
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) {
          clearTimeout(timer);
          resolve(line.trim());
        }
      });
      child.once("exit", (code) => reject(new Error(`instance ${this.id} exited (${code}): ${this.stderr}`)));
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The exit code once the process ended by itself (null while it runs or when a signal ended it). */
  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  }
}

/** A round-robin HTTP proxy: each request goes to the next live backend; `landed` records where each went. */
export class RoundRobinProxy {
  readonly landed: Array<{ method: string; backend: string }> = [];
  private next = 0;
  private server: Server | undefined;
  url = "";

  constructor(private readonly backends: readonly InstanceProcess[]) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const live = this.backends.filter((b) => b.alive);
      const backend = live[this.next++ % live.length];
      if (!backend) {
        res.writeHead(502).end();
        return;
      }
      this.landed.push({ method: req.method ?? "", backend: backend.id });
      const target = new URL(backend.url);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.flushHeaders();
          answer.on("data", (chunk: Buffer) => res.write(chunk));
          answer.on("end", () => res.end());
          answer.on("error", () => res.destroy());
          answer.on("aborted", () => res.destroy());
        },
      );
      upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      res.on("close", () => upstream.destroy());
      req.pipe(upstream);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export interface Cluster {
  readonly redis: RedisProcess;
  readonly instances: readonly InstanceProcess[];
  readonly proxy: RoundRobinProxy;
  stop(): Promise<void>;
}

/** Redis, `count` instances and the proxy; `env` goes to every instance. */
export async function startCluster(count = 3, env: Record<string, string> = {}): Promise<Cluster> {
  const redis = new RedisProcess();
  await redis.start();
  const instances = Array.from(
    { length: count },
    (_, i) => new InstanceProcess(`i${i}`, { REDIS_URL: redis.url, ...env }),
  );
  await Promise.all(instances.map((instance) => instance.start()));
  const proxy = new RoundRobinProxy(instances);
  await proxy.start();
  return {
    redis,
    instances,
    proxy,
    async stop() {
      await proxy.close();
      await Promise.all(instances.map((instance) => instance.kill("SIGKILL")));
      await redis.stop();
    },
  };
}
