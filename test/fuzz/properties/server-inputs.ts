/**
 * Server inputs the attacker controls (issue 20), as properties against test/fuzz/harness/hostile.ts over real
 * sockets:
 * - completion names: `completion/complete` for any argument name answers a list of strings, non-empty only for the
 *   argument that has a completer (`constructor`, `__proto__`, … found Object.prototype's members before);
 * - template URIs: `resources/read` of long URIs made of the characters templates split on is answered quickly and
 *   rightly (a result whose variables fit the URI, or a not-found error);
 * - dropped batches: batches of `wait` calls whose client hangs up leave at most the session's cap running;
 * - connection floods: one address holding every socket it may (and more) does not keep a second address out.
 */
import fc from "fast-check";
import type { Socket } from "node:net";
import { expandUriTemplate } from "../../../runtime/protocol/uri-template.ts";
import { postFrame } from "../harness/peers.ts";
import { startServer } from "../harness/process.ts";
import { head, openSocket, rawRequest } from "../harness/raw-http.ts";
import { openSession } from "./abuse.ts";
import type { RunOptions } from "./frames.ts";
import { adversarialMatching, holdsAsync, templateRoundTrip } from "./templates.ts";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A session of `version` on `url`: its headers, and a POST of one JSON-RPC value on it. */
export async function sessionOn(url: string, version = "2025-11-25") {
  const id = await openSession(url, version);
  const headers = { "mcp-session-id": id, "mcp-protocol-version": version };
  let next = 100;
  const call = async (method: string, params: Obj, timeoutMs = 15_000): Promise<Obj> => {
    const answer = await postFrame(
      url,
      JSON.stringify({ jsonrpc: "2.0", id: next++, method, params }),
      headers,
      timeoutMs,
    );
    const value = answer.answers[0]?.value;
    if (!isObject(value)) throw new Error(`${method}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    return value;
  };
  return { id, headers, call };
}

/** The names of Object.prototype's members, and strings like them. */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const argumentName = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, "name", "city", "prototype", "__proto__"),
  fc.string({ maxLength: 12 }),
);

export async function completionNames(url: string, options: RunOptions): Promise<void> {
  const session = await sessionOn(url);
  const refs = [
    { ref: { type: "ref/prompt", name: "greet" }, completes: "name", values: ["alice", "bob"] },
    { ref: { type: "ref/resource", uri: "weather://{city}-{date}-{unit}" }, completes: "city", values: ["Oslo"] },
  ];
  await holdsAsync(
    fc.asyncProperty(argumentName, fc.constantFrom(...refs), async (name, { ref, completes, values }) => {
      const answer = await session.call("completion/complete", { ref, argument: { name, value: "" } });
      const completion = isObject(answer["result"]) ? answer["result"]["completion"] : undefined;
      if (!isObject(completion)) throw new Error(`${name}: no completion in ${JSON.stringify(answer).slice(0, 200)}`);
      const expected = name === completes ? values : [];
      if (JSON.stringify(completion["values"]) !== JSON.stringify(expected) || completion["total"] !== expected.length)
        throw new Error(`${name} on ${ref.type}: ${JSON.stringify(completion)}`);
    }),
    options,
  );
}

const TEMPLATES = ["weather://{city}-{date}-{unit}", "{a}.{b}.{c}.{d}", "docs://{slug}{?version,lang}"];

/** Long URIs: a chunk of splitting characters repeated to 1,000–9,000 characters, after a template's scheme. */
const longUri = fc
  .record({
    prefix: fc.constantFrom("weather://", "", "docs://"),
    chunk: fc.string({ unit: fc.constantFrom("-", ".", "a", "/", "?", "&", "=", "%", "version=", "é"), minLength: 1 }),
    length: fc.integer({ min: 1_000, max: 9_000 }),
    tail: fc.constantFrom("", "!", "-x", ".x", "?version=1"),
  })
  .map(
    ({ prefix, chunk, length, tail }) =>
      prefix + chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length) + tail,
  );

/** Each answer within `budgetMs` (a backtracking matcher took seconds at these lengths), and right. */
export async function templateUris(url: string, options: RunOptions, budgetMs = 2_000): Promise<void> {
  const session = await sessionOn(url);
  await holdsAsync(
    fc.asyncProperty(longUri, async (uri) => {
      const started = Date.now();
      const answer = await session.call("resources/read", { uri });
      const took = Date.now() - started;
      if (took > budgetMs) throw new Error(`resources/read of ${uri.length} characters took ${took} ms`);
      const error = answer["error"];
      if (isObject(error)) {
        if (error["code"] !== -32002 && error["code"] !== -32602) throw new Error(`error ${JSON.stringify(error)}`);
        return;
      }
      // The launcher answers with the variables it was given: they must expand back to the URI under some template.
      const contents = isObject(answer["result"]) ? answer["result"]["contents"] : undefined;
      const first = Array.isArray(contents) && isObject(contents[0]) ? contents[0] : undefined;
      const variables = JSON.parse(String(first?.["text"])) as Record<string, string>;
      if (!TEMPLATES.some((t) => expandUriTemplate(t, variables) === uri || matchesLoosely(t, variables, uri)))
        throw new Error(`${uri.slice(0, 60)}… read as ${JSON.stringify(variables).slice(0, 200)}`);
    }),
    options,
  );
}

/** Matching decodes values and accepts reserved characters expansion would encode: compare decoded forms. */
function matchesLoosely(template: string, variables: Record<string, string>, uri: string): boolean {
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return decode(expandUriTemplate(template, variables)) === decode(uri);
}

/** A batch of `size` `wait` calls (each `ms` long) on a session of 2025-03-26, the one revision with batches. */
export function waitBatch(size: number, ms: number, firstId = 1): string {
  return JSON.stringify(
    Array.from({ length: size }, (_, i) => ({
      jsonrpc: "2.0",
      id: firstId + i,
      method: "tools/call",
      params: { name: "wait", arguments: { ms } },
    })),
  );
}

/** POSTs `body` on `session` over a raw socket and hangs up as soon as it is written. */
export async function postAndDrop(port: number, headers: Record<string, string>, body: string): Promise<void> {
  const socket = await openSocket(port);
  const bytes = Buffer.from(body);
  const request = Buffer.concat([
    head("POST", "/mcp", port, {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": String(bytes.length),
      ...headers,
    }),
    bytes,
  ]);
  await new Promise<void>((resolve) => socket.write(request, () => resolve()));
  socket.destroy();
}

/** How many `wait` handlers run now, asked on a session of its own (the cap is per session). */
export async function runningWaits(url: string, timeoutMs = 60_000): Promise<number> {
  const side = await sessionOn(url);
  const answer = await side.call("tools/call", { name: "running", arguments: {} }, timeoutMs);
  const result = answer["result"] as { content: Array<{ text: string }> } | undefined;
  return Number(result?.content[0]?.text);
}

/** Batches of dropped `wait` calls never leave more than `cap` running on their session. */
export async function droppedBatches(url: string, cap: number, options: RunOptions): Promise<void> {
  const port = Number(new URL(url).port);
  await holdsAsync(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: cap * 3 }), { minLength: 1, maxLength: 4 }), async (sizes) => {
      const session = await sessionOn(url, "2025-03-26");
      let id = 1;
      for (const size of sizes) {
        await postAndDrop(port, session.headers, waitBatch(size, 1_500, id));
        id += size;
      }
      await new Promise((r) => setTimeout(r, 300));
      const running = await runningWaits(url);
      if (running > cap) throw new Error(`${running} handlers run after batches of ${sizes.join(", ")} (cap ${cap})`);
      // Let them finish before the next case, whose session would otherwise add its own.
      const deadline = Date.now() + 10_000;
      while ((await runningWaits(url)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    }),
    options,
  );
}

/** Opens `count` idle sockets from `address` (some may be closed by the server at once). */
export async function openSockets(port: number, count: number, address: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const socket = await openSocket(port, address);
      socket.on("error", () => undefined);
      sockets.push(socket);
    } catch {
      // refused: not held
    }
  }
  return sockets;
}

/** Those of `sockets` still open, a moment after the server answered a later connection (so it saw these). */
export async function stillOpen(sockets: readonly Socket[]): Promise<number> {
  await new Promise((r) => setTimeout(r, 300));
  return sockets.filter((s) => !s.destroyed && s.readyState === "open").length;
}

/** An `initialize` from `address` on a fresh connection: the HTTP status (0 when closed unanswered). */
export async function initializeFrom(port: number, address: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "other", version: "1" } },
  });
  const request = Buffer.concat([
    head("POST", "/mcp", port, {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    }),
    Buffer.from(body),
  ]);
  try {
    return (await rawRequest(port, request, 5_000, address)).status;
  } catch {
    return 0;
  }
}

/** One address floods with up to `share + extra` sockets; it keeps at most `share`, and another address is served. */
export async function connectionFlood(url: string, share: number, options: RunOptions): Promise<void> {
  const port = Number(new URL(url).port);
  await holdsAsync(
    fc.asyncProperty(fc.integer({ min: 2, max: 254 }), fc.nat({ max: 40 }), async (host, extra) => {
      const flooder = `127.0.0.${host}`;
      const other = `127.0.${host === 254 ? 1 : 0}.${host === 254 ? 1 : host + 1}`;
      const sockets = await openSockets(port, share + extra, flooder);
      try {
        const status = await initializeFrom(port, other);
        if (status !== 200) throw new Error(`${other} got ${status} while ${flooder} flooded`);
        const held = await stillOpen(sockets);
        if (held > share) throw new Error(`${flooder} holds ${held} sockets (share ${share})`);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
      await new Promise((r) => setTimeout(r, 100));
    }),
    options,
  );
}

/** Runs `property` against its own hostile.ts server process (cap 20 in flight, 10 sockets per address). */
const onHostile =
  (property: (url: string, o: RunOptions) => Promise<void>, share = 1) =>
  async (o: RunOptions): Promise<void> => {
    const server = await startServer({
      mode: "http",
      launcher: "hostile.ts",
      env: {
        HOSTILE_SERVER: JSON.stringify({ maxRequestsInFlight: 20 }),
        HOSTILE_HTTP: JSON.stringify({ maxConnections: 50, maxConnectionsPerAddress: 10 }),
      },
    });
    try {
      // Network properties cost far more per case than the frame properties: `share` of the count.
      await property(server.url, { ...o, numRuns: Math.max(1, Math.round(o.numRuns * share)) });
    } finally {
      await server.stop();
    }
  };

/** The server-input properties for `npm run fuzz` (test/fuzz/run.ts); template matching runs in-process. */
export const SERVER_INPUT_PROPERTIES: Array<[string, (o: RunOptions) => Promise<void>]> = [
  ["template matching round trip", async (o) => templateRoundTrip(o)],
  ["template matching time", async (o) => adversarialMatching(o)],
  ["server completion names", onHostile(completionNames)],
  ["server template URIs", onHostile(templateUris, 0.1)],
  ["server dropped batches", onHostile((url, o) => droppedBatches(url, 20, o), 0.01)],
  ["server connection floods", onHostile((url, o) => connectionFlood(url, 10, o), 0.02)],
];
