/**
 * The stdio client transport against real child processes: what reaches the child (args, env, cwd), where its
 * stderr goes, the spec's shutdown sequence (close stdin → wait → SIGTERM → wait → SIGKILL, asserting which step
 * ended the child), and a child dying with requests in flight.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ConnectionClosedError, type TransportSink } from "../../../runtime/index.ts";
import { JsonRpcEngine } from "../../../runtime/advanced.ts";
import { nodeArgs } from "../../fixture-run.ts";
import {
  DEFAULT_INHERITED_ENV,
  StdioClientTransport,
  type StdioClientTransportOptions,
} from "../../../runtime/node.ts";

const CHILD = fileURLToPath(new URL("../fixtures/stdio-child.ts", import.meta.url));
const PARENT = fileURLToPath(new URL("../fixtures/stdio-parent.ts", import.meta.url));
/** tsx by absolute URL, so children started in another working directory still load it (stdio-parent.ts runs from
 * its source: it starts stdio-child.ts beside it). */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
// Long enough for a loaded machine to let the child react to each step before the next one.
const GRACE_MS = 2000;
const started: StdioClientTransport[] = [];
const workDir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-gen-stdio-")));

afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

interface Started {
  readonly transport: StdioClientTransport;
  readonly frames: Array<{ method: string; params: Record<string, unknown> }>;
  readonly stderr: string[];
  readonly closed: Promise<Error | undefined>;
}

/** Starts `stdio-child.ts <behaviour>` and resolves once its handlers are installed (its `ready` line). */
async function startChild(behaviour: string[], options: Partial<StdioClientTransportOptions> = {}): Promise<Started> {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs(CHILD), ...behaviour],
    stderr: "pipe",
    onStderr: (text) => stderr.push(text),
    shutdownGraceMs: GRACE_MS,
    ...options,
  });
  started.push(transport);
  const frames: Started["frames"] = [];
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  let onClosed!: (error: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (onClosed = resolve));
  const sink: TransportSink = {
    receive: (frame) => {
      const message = JSON.parse(String(frame)) as { method: string; params: Record<string, unknown> };
      frames.push(message);
      if (message.method === "ready") onReady();
    },
    closed: (error) => onClosed(error),
  };
  await transport.start(sink);
  const early = closed.then((error) => {
    throw new Error(`child ended before it was ready (${error?.message}): ${stderr.join("")}`);
  });
  await Promise.race([ready, early]);
  return { transport, frames, stderr, closed };
}

describe("what reaches the child", () => {
  it("passes args, the given env (plus extraEnv) and cwd, and nothing else of our environment", async () => {
    const { transport, frames } = await startChild(["report", "extra-arg"], {
      env: { ONLY_THIS: "1", PATH: process.env["PATH"] ?? "" },
      extraEnv: { ADDED: "2" },
      cwd: workDir,
    });
    const report = frames.find((f) => f.method === "report")!.params as {
      env: Record<string, string>;
      cwd: string;
      argv: string[];
    };
    expect(report.argv).toEqual(["report", "extra-arg"]);
    expect(report.cwd).toBe(workDir);
    expect(report.env["ONLY_THIS"]).toBe("1");
    expect(report.env["ADDED"]).toBe("2");
    expect(report.env["HOME"]).toBeUndefined();
    await transport.close();
  });

  it("inherits only the safe default variables when no env is given", async () => {
    process.env["MCP_GEN_TEST_SECRET"] = "leak";
    try {
      const { frames } = await startChild(["report"], { extraEnv: { ADDED: "3" } });
      const env = (frames.find((f) => f.method === "report")!.params as { env: Record<string, string> }).env;
      expect(env["MCP_GEN_TEST_SECRET"]).toBeUndefined();
      expect(env["ADDED"]).toBe("3");
      for (const key of DEFAULT_INHERITED_ENV) {
        const ours = process.env[key];
        if (ours !== undefined && !ours.startsWith("()")) expect(env[key], key).toBe(ours);
      }
      // The child adds a few variables of its own at most (node/tsx); none of ours beyond the default list.
      const ourOnly = Object.keys(process.env).filter((k) => !DEFAULT_INHERITED_ENV.includes(k) && k !== "ADDED");
      expect(ourOnly.filter((k) => env[k] !== undefined && env[k] === process.env[k])).toEqual([]);
    } finally {
      delete process.env["MCP_GEN_TEST_SECRET"];
    }
  });

  it("runs in our working directory when no cwd is given", async () => {
    const { frames } = await startChild(["report"]);
    expect((frames.find((f) => f.method === "report")!.params as { cwd: string }).cwd).toBe(
      realpathSync(process.cwd()),
    );
  });
});

describe("the child's stderr", () => {
  it("is captured with stderr: pipe", async () => {
    const { transport, stderr } = await startChild(["report"]);
    await transport.close();
    expect(stderr.join("")).toContain("stdio-child: report ready");
    expect(stderr.join("")).toContain("stdio-child: stdin closed, exiting");
  });

  it("keeps reading a piped stderr that nobody listens to, so a chatty child does not block", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs(CHILD), "noisy"],
      stderr: "pipe",
      shutdownGraceMs: GRACE_MS,
    });
    started.push(transport);
    const ready = new Promise<"ready">((resolve) => {
      void transport.start({
        receive: (frame) => String(frame).includes('"ready"') && resolve("ready"),
        closed: () => undefined,
      });
    });
    // The child writes 1 MiB to stderr before it is ready; an unread pipe would block it there for good.
    const stuck = new Promise<"stuck">((resolve) => setTimeout(() => resolve("stuck"), 45_000).unref());
    expect(await Promise.race([ready, stuck])).toBe("ready");
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
  });

  it.each([
    ["inherit", true],
    ["ignore", false],
  ] as const)("reaches our own stderr with stderr: %s → %s", (mode, forwarded) => {
    const run = spawnSync(process.execPath, ["--import", TSX, PARENT, mode], { encoding: "utf8", timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    // The parent's own line proves its stderr was read; the child's lines appear only when forwarded.
    expect(run.stderr).toContain('stdio-parent: child ended with {"code":0,"signal":null}');
    expect(run.stderr.includes("stdio-child: report ready")).toBe(forwarded);
  });
});

describe("shutdown: close stdin, wait, SIGTERM, wait, SIGKILL", () => {
  it("ends at the first step for a child that exits when stdin closes", async () => {
    const { transport, stderr, closed } = await startChild(["report"]);
    expect(transport.exitStatus).toBeUndefined();
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(stderr.join("")).not.toContain("SIGTERM");
    await expect(closed).resolves.toBeUndefined(); // a requested close is not an error
  });

  it("sends SIGTERM to a child that ignores stdin closing", async () => {
    const { transport, stderr, closed } = await startChild(["ignore-stdin-close"]);
    await transport.close();
    expect(stderr.join("")).toContain("stdin closed, staying up");
    expect(transport.exitStatus).toEqual({ code: null, signal: "SIGTERM" });
    await expect(closed).resolves.toBeUndefined();
  });

  it("sends SIGKILL to a child that also ignores SIGTERM", async () => {
    const { transport, stderr, closed } = await startChild(["ignore-sigterm"]);
    const pid = transport.pid!;
    await transport.close();
    const text = stderr.join("");
    expect(text).toContain("stdin closed, staying up");
    expect(text).toContain("got SIGTERM, ignoring it");
    expect(text.indexOf("stdin closed")).toBeLessThan(text.indexOf("got SIGTERM"));
    expect(transport.exitStatus).toEqual({ code: null, signal: "SIGKILL" });
    expect(() => process.kill(pid, 0)).toThrow(); // gone
    await expect(closed).resolves.toBeUndefined();
  });

  it("delivers the messages sent in the same turn as close() before stdin ends", async () => {
    const { transport } = await startChild(["die-after", "3"]);
    for (let id = 1; id <= 3; id++) void transport.send({ jsonrpc: "2.0", id, method: "x" });
    await transport.close();
    // It saw all three requests (exit code 3), not only the first one before the end of stdin (code 0).
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });

  it("closes cleanly when the child already exited, and closing twice is harmless", async () => {
    const { transport, closed } = await startChild(["die-after", "1"]);
    await transport.send({ jsonrpc: "2.0", id: 1, method: "x" });
    await expect(closed).resolves.toBeInstanceOf(Error);
    await transport.close();
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });
});

describe("a child that dies mid-request", () => {
  it("fails every pending request with a clear error, and later sends too", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs(CHILD), "die-after", "3"],
      stderr: "pipe",
      shutdownGraceMs: GRACE_MS,
    });
    started.push(transport);
    const closes: Array<Error | undefined> = [];
    let ready!: () => void;
    const readyOnce = new Promise<void>((resolve) => (ready = resolve));
    const engine = new JsonRpcEngine(transport, {
      onRequest: () => ({}),
      onNotification: (method) => method === "ready" && ready(),
      onClose: (error) => closes.push(error),
    });
    await engine.start();
    await readyOnce;
    const pending = [engine.request("a", {}), engine.request("b", {}), engine.request("c", {})];
    const outcomes = await Promise.allSettled(pending);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(ConnectionClosedError);
      expect(reason.message).toMatch(/exited \(exit code 3\)/);
    }
    expect(engine.pendingCount).toBe(0);
    expect(closes).toHaveLength(1);
    expect(closes[0]?.message).toMatch(/exit code 3/);
    await expect(engine.request("d", {})).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });
});

describe("the end of the child process", () => {
  it("delivers what the child wrote right before exiting", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs(CHILD), "answer-and-exit"],
      stderr: "pipe",
    });
    started.push(transport);
    const closes: Array<Error | undefined> = [];
    const engine = new JsonRpcEngine(transport, {
      onRequest: () => ({}),
      onNotification: () => undefined,
      onClose: (error) => closes.push(error),
    });
    await engine.start();
    await expect(engine.request("question", {})).resolves.toEqual({ answered: true });
    await expect(engine.request("after", {})).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(closes.map((e) => e?.message)).toEqual([expect.stringMatching(/exit code 5/)]);
  });

  it("does not hang when a grandchild keeps the child's stdout open", async () => {
    const { transport, frames } = await startChild(["orphan-holder"]);
    const grandchild = (frames.find((f) => f.method === "grandchild")!.params as { pid: number }).pid;
    try {
      await transport.close();
      expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    } finally {
      process.kill(grandchild, "SIGKILL");
    }
  });
});
