/**
 * The malformed-frame property over each transport of examples/everything, a real process each: every frame gets
 * the answer its construction demands, the next valid request (a sentinel ping) succeeds, the process stays up,
 * and the heap after GC ends where it started.
 */
import fc from "fast-check";
import { answerCount, isServerInitiated, mismatch, type Answer } from "../check.ts";
import { anyFrame, withIds, type Expect, type Frame, type FrameContext } from "../frames.ts";
import { HEAP_SLACK_BYTES, startServer, type ServerProcess } from "../harness/process.ts";
import { LegacyStream, postFrame, StdioPeer, type HttpAnswer } from "../harness/peers.ts";

export interface RunOptions {
  readonly numRuns: number;
  readonly seed: number;
  readonly log?: (line: string) => void;
}

const MODERN = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function initialize(id: number, version: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } },
  });
}
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const ping = (id: string, modern: boolean): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: modern ? "server/discover" : "ping",
    ...(modern ? { params: { _meta: META } } : {}),
  });

/** A harness-side session: sends one frame (placeholders → ids from `base`) and returns its answers, or throws. */
interface Target {
  readonly ctx: FrameContext;
  readonly server: ServerProcess;
  exchange(frame: Frame, base: number): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Run the property on a target; throws (fast-check's report, with the counterexample) on failure. */
async function runOn(target: Target, options: RunOptions, name: string): Promise<void> {
  let base = 1000;
  const property = fc.asyncProperty(anyFrame(target.ctx), async (frame) => {
    if (!target.server.alive())
      throw new Error(`server process has exited; stderr: ${target.server.stderr().slice(-2000)}`);
    base += 100;
    const problem = await target.exchange(frame, base);
    if (problem) throw new Error(problem);
    if (!target.server.alive())
      throw new Error(`server process exited after the frame; stderr: ${target.server.stderr().slice(-2000)}`);
  });
  // Warm up (caches, JIT, pools) before the baseline, so the comparison sees only growth the frames cause.
  await fc.assert(property, {
    numRuns: Math.min(50, options.numRuns),
    seed: options.seed ^ 0x5eed,
    endOnFailure: true,
  });
  const before = await target.server.heapAfterGc();
  const started = Date.now();
  await fc.assert(property, { numRuns: options.numRuns, seed: options.seed, endOnFailure: true });
  const after = await target.server.heapAfterGc();
  options.log?.(
    `${name}: ${options.numRuns} frames in ${Date.now() - started} ms, heap after GC ${mb(before)} → ${mb(after)} MB`,
  );
  if (after - before > HEAP_SLACK_BYTES)
    throw new Error(`${name}: heap after GC grew ${mb(before)} → ${mb(after)} MB over ${options.numRuns} frames`);
  if (!target.server.alive()) throw new Error(`${name}: server process exited`);
}

const mb = (n: number): string => (n / 1048576).toFixed(1);

/** stdio, in a handshake revision (initialize first) or the stateless one (`_meta` on every request). */
export async function stdioFrames(
  revision: "2025-03-26" | "2025-11-25" | "2026-07-28",
  options: RunOptions,
): Promise<void> {
  const modern = revision === MODERN;
  const server = await startServer({ mode: "stdio" });
  const peer = new StdioPeer(server.child.stdin!, server.child.stdout!);
  try {
    // The first answer waits for the process to start (slow on a loaded machine), so it has its own long deadline.
    await peer.write(Buffer.from(modern ? ping("1", true).replace('"id":"1"', '"id":1') : initialize(1, revision)));
    await peer.until(
      () => peer.received.some((a) => isObject(a.value) && a.value["id"] === 1),
      "the first answer",
      60_000,
    );
    if (!modern) await peer.write(Buffer.from(INITIALIZED));
    let previous = "(first frame)";
    const target: Target = {
      ctx: { modern, batches: revision === "2025-03-26" },
      server,
      async exchange(frame, base) {
        const from = peer.received.length;
        const sentinel = `sentinel-${base}`;
        await peer.write(withIds(frame.bytes, base));
        await peer.write(Buffer.from(ping(sentinel, modern)));
        const isSentinel = (a: Answer) => isObject(a.value) && a.value["id"] === sentinel;
        const mine = () => peer.received.slice(from).filter((a) => !isSentinel(a) && !isServerInitiated(a.value));
        const want = answerCount(frame.expect);
        const what = `the answers to ${frame.label} (after ${previous}; received so far: ${
          peer.received
            .slice(from)
            .map((a) => a.raw.slice(0, 120))
            .join(" | ") || "nothing"
        }; stderr: ${server.stderr().slice(-500)})`;
        previous = frame.label;
        await peer.until(() => peer.received.slice(from).some(isSentinel) && mine().length >= want, what);
        const answer = peer.received.slice(from).find(isSentinel)!;
        if (!isObject(answer.value) || !("result" in answer.value))
          return `the ping after ${frame.label} failed: ${answer.raw.slice(0, 300)}`;
        return mismatch(frame.expect, mine(), base);
      },
      close: () => server.stop(),
    };
    await runOn(target, options, `stdio ${revision}`);
  } finally {
    await server.stop();
  }
}

/** Headers a 2026-07-28 client mirrors from the body (its own encoder: plain safe ASCII, else `=?base64?…?=`). */
export function mirroredHeaders(bytes: Buffer): Record<string, string> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN };
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString("utf8"));
  } catch {
    return headers;
  }
  if (!isObject(message) || typeof message["method"] !== "string") return headers;
  const method = message["method"];
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(method)) headers["mcp-method"] = method;
  const params = isObject(message["params"]) ? message["params"] : {};
  const name =
    method === "resources/read"
      ? params["uri"]
      : method === "tools/call" || method === "prompts/get"
        ? params["name"]
        : undefined;
  if (typeof name === "string") {
    const plain =
      /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(name) && !(name.startsWith("=?base64?") && name.endsWith("?="));
    headers["mcp-name"] = plain ? name : `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
  }
  return headers;
}

/** HTTP status rules of Streamable HTTP, then the JSON-RPC answer itself. */
function httpMismatch(expect: Expect, res: HttpAnswer, base: number, modern: boolean): string | undefined {
  const want = answerCount(expect);
  const where = `HTTP ${res.status} ${res.contentType}: ${res.text.slice(0, 300)}`;
  if (want === 0) return res.status === 202 && res.text === "" ? undefined : `expected 202 with no body, got ${where}`;
  if (res.status === 413 || res.status >= 500) return `expected a JSON-RPC answer, got ${where}`;
  if (expect.kind === "one") {
    const codes = expect.outcomes.filter((o): o is number => typeof o === "number");
    // Parse errors and invalid messages are not requests: an HTTP error status (the JSON-RPC body is optional).
    if (expect.outcomes.length === 1 && codes[0] === -32700 && res.status !== 400) return `expected 400, got ${where}`;
    if (modern && expect.outcomes.length === 1 && codes[0] === -32601 && res.status !== 404)
      return `expected 404, got ${where}`;
    if (modern && expect.outcomes.length === 1 && codes[0] === -32600 && res.status !== 400)
      return `expected 400, got ${where}`;
    if (
      res.answers.length === 0 &&
      codes.length === expect.outcomes.length &&
      res.status >= 400 &&
      res.status < 500 &&
      codes.includes(-32600)
    )
      return undefined;
  }
  if (res.status !== 200 && res.status !== 400 && res.status !== 404) return `unexpected status: ${where}`;
  if (!/^(application\/json|text\/event-stream)/.test(res.contentType)) return `unexpected content type: ${where}`;
  return mismatch(expect, res.answers, base);
}

/** Streamable HTTP with a session (2025-11-25, or 2025-03-26 with batches). */
export async function httpSessionFrames(revision: "2025-03-26" | "2025-11-25", options: RunOptions): Promise<void> {
  const server = await startServer({ mode: "http" });
  try {
    const init = await postFrame(server.url, initialize(1, revision), {});
    const session = init.headers.get("mcp-session-id");
    if (!session) throw new Error(`no session: HTTP ${init.status} ${init.text}`);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": revision };
    const ack = await postFrame(server.url, INITIALIZED, headers);
    if (ack.status !== 202) throw new Error(`notifications/initialized: HTTP ${ack.status}`);
    const target: Target = {
      ctx: { modern: false, batches: revision === "2025-03-26" },
      server,
      async exchange(frame, base) {
        const res = await postFrame(server.url, withIds(frame.bytes, base), headers);
        const problem = httpMismatch(frame.expect, res, base, false);
        if (problem) return `${frame.label}: ${problem}`;
        const next = await postFrame(server.url, ping(`sentinel-${base}`, false), headers);
        return next.status === 200 && isObject(next.answers[0]?.value) && "result" in next.answers[0].value
          ? undefined
          : `the ping after ${frame.label} failed: HTTP ${next.status} ${next.text.slice(0, 300)}`;
      },
      close: () => server.stop(),
    };
    await runOn(target, options, `HTTP session ${revision}`);
  } finally {
    await server.stop();
  }
}

/** Stateless Streamable HTTP, 2026-07-28: every POST stands alone, headers mirrored from the body. */
export async function statelessFrames(options: RunOptions): Promise<void> {
  const server = await startServer({ mode: "http" });
  try {
    const target: Target = {
      ctx: { modern: true, batches: false, refusesResponses: true },
      server,
      async exchange(frame, base) {
        const bytes = withIds(frame.bytes, base);
        const res = await postFrame(server.url, bytes, mirroredHeaders(bytes));
        const problem = httpMismatch(frame.expect, res, base, true);
        if (problem) return `${frame.label}: ${problem}`;
        const sentinel = Buffer.from(ping(`sentinel-${base}`, true));
        const next = await postFrame(server.url, sentinel, mirroredHeaders(sentinel));
        return next.status === 200 && isObject(next.answers[0]?.value) && "result" in next.answers[0].value
          ? undefined
          : `the ping after ${frame.label} failed: HTTP ${next.status} ${next.text.slice(0, 300)}`;
      },
      close: () => server.stop(),
    };
    await runOn(target, options, "HTTP stateless 2026-07-28");
  } finally {
    await server.stop();
  }
}

/** The legacy HTTP+SSE endpoints (2024-11-05): answers on the SSE stream, or an HTTP error for what is not a message. */
export async function legacyFrames(options: RunOptions): Promise<void> {
  const server = await startServer({ mode: "http" });
  const stream = await LegacyStream.open(new URL("/sse", server.url).toString());
  try {
    const init = await postFrame(stream.endpoint, initialize(1, "2024-11-05"), {});
    if (init.status !== 202) throw new Error(`legacy initialize: HTTP ${init.status}`);
    await stream.until(
      () => stream.received.some((a) => isObject(a.value) && a.value["id"] === 1),
      "the legacy initialize answer",
    );
    await postFrame(stream.endpoint, INITIALIZED, {});
    const target: Target = {
      ctx: { modern: false, batches: false },
      server,
      async exchange(frame, base) {
        const from = stream.received.length;
        const res = await postFrame(stream.endpoint, withIds(frame.bytes, base), {});
        if (res.status !== 202 && (res.status < 400 || res.status >= 500 || res.status === 413))
          return `${frame.label}: HTTP ${res.status} ${res.text.slice(0, 300)}`;
        const sentinel = `sentinel-${base}`;
        const next = await postFrame(stream.endpoint, ping(sentinel, false), {});
        if (next.status !== 202) return `the ping after ${frame.label}: HTTP ${next.status}`;
        const isSentinel = (a: Answer) => isObject(a.value) && a.value["id"] === sentinel;
        const onStream = () => stream.received.slice(from).filter((a) => !isSentinel(a) && !isServerInitiated(a.value));
        const mine = () => [...(res.status === 202 ? [] : res.answers), ...onStream()];
        const want = answerCount(frame.expect);
        await stream.until(
          () => stream.received.slice(from).some(isSentinel) && mine().length >= want,
          `the answers to ${frame.label}`,
        );
        const answer = stream.received.slice(from).find(isSentinel)!;
        if (!isObject(answer.value) || !("result" in answer.value))
          return `the ping after ${frame.label} failed: ${answer.raw.slice(0, 300)}`;
        // A message refused at the HTTP level may come without a JSON-RPC body (what 2024-11-05 allows).
        if (
          res.status !== 202 &&
          res.answers.length === 0 &&
          onStream().length === 0 &&
          frame.expect.kind === "one" &&
          frame.expect.outcomes.every((o) => o === -32700 || o === -32600)
        )
          return undefined;
        return mismatch(frame.expect, mine(), base);
      },
      close: () => server.stop(),
    };
    await runOn(target, options, "legacy HTTP+SSE 2024-11-05");
  } finally {
    stream.close();
    await server.stop();
  }
}
