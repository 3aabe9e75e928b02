/**
 * A round-robin proxy that behaves as a load balancer with health checks does (nginx with `proxy_next_upstream
 * error`, a Kubernetes Service fed by readiness probes): it probes every backend's readiness endpoint every
 * `probeMs` and sends requests only to backends whose last probe answered 200; a connection refused before anything
 * was sent goes to the next backend. No stickiness. `landed` records where each request went.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { InstanceProcess } from "./cluster.ts";

export class ProbingProxy {
  readonly landed: Array<{ method: string; backend: string }> = [];
  private readonly ready = new Map<InstanceProcess, boolean>();
  private next = 0;
  private server: Server | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  url = "";

  constructor(
    private readonly backends: readonly InstanceProcess[],
    private readonly probeMs = 100,
    private readonly readyPath = "/ready",
  ) {}

  async start(): Promise<void> {
    await Promise.all(this.backends.map((b) => this.probe(b)));
    this.timer = setInterval(() => this.backends.forEach((b) => void this.probe(b)), this.probeMs);
    const server = createServer((req, res) => this.forward(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  /** The last probe of `backend` answered 200. */
  readyNow(backend: InstanceProcess): boolean {
    return this.ready.get(backend) === true;
  }

  private async probe(backend: InstanceProcess): Promise<void> {
    if (!backend.alive || backend.url === "") return void this.ready.set(backend, false);
    try {
      const answer = await fetch(new URL(this.readyPath, backend.url), { signal: AbortSignal.timeout(2_000) });
      await answer.arrayBuffer();
      this.ready.set(backend, answer.status === 200);
    } catch {
      this.ready.set(backend, false);
    }
  }

  private pick(exclude: ReadonlySet<InstanceProcess>): InstanceProcess | undefined {
    const usable = this.backends.filter((b) => b.alive && this.ready.get(b) === true && !exclude.has(b));
    return usable[this.next++ % Math.max(usable.length, 1)];
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => this.send(req, Buffer.concat(chunks), res, new Set()));
  }

  private send(req: IncomingMessage, body: Buffer, res: ServerResponse, tried: Set<InstanceProcess>): void {
    const backend = this.pick(tried);
    if (!backend) {
      res.writeHead(502).end();
      return;
    }
    tried.add(backend);
    const target = new URL(backend.url);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        this.landed.push({ method: req.method ?? "", backend: backend.id });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.on("data", (chunk: Buffer) => res.write(chunk));
        answer.on("end", () => res.end());
        answer.on("error", () => res.destroy());
        answer.on("aborted", () => res.destroy());
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (res.destroyed) return;
      // Refused: nothing reached the backend, so another may serve it (nginx's proxy_next_upstream error).
      if (error.code === "ECONNREFUSED" && !res.headersSent) this.send(req, body, res, tried);
      else if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    res.on("close", () => upstream.destroy());
    upstream.end(body);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
