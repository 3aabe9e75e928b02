/**
 * The web-standard entry (`runtime/http/web-entry.ts`: `McpHttpHandler`, `toFetchHandler`, bearer auth) uses web
 * APIs only, as Workers, Deno and Bun need (issue 14): bundled by esbuild for a neutral platform with no externals,
 * any `node:` import fails the build and any use of `Buffer`, `process`, `setImmediate` or `require` shows in the
 * output; run in a bare V8 context with web globals only (no eval, like Workers), building the handler at module
 * scope starts no timer and draws no random bytes, and the first request is served.
 */
import { build, type BuildOptions } from "esbuild";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, JSON_HEADERS, modernMeta, MODERN } from "../helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const WEB_ENTRY = path.join(ROOT, "runtime/http/web-entry.ts");
const NODE_ONLY_GLOBALS = ["Buffer", "process", "setImmediate", "require", "global", "__dirname", "__filename"];

/** Bundle `entry` (or inline `contents`) as the web path must be: neutral platform, nothing external. */
async function bundle(entry: { file: string } | { contents: string }) {
  const options: BuildOptions = {
    bundle: true,
    platform: "neutral",
    format: "iife",
    globalName: "webEntry",
    write: false,
    metafile: true,
    logLevel: "silent",
    absWorkingDir: ROOT,
    // Every free use of a Node-only global becomes a marker the test can find (property names stay untouched).
    define: Object.fromEntries(NODE_ONLY_GLOBALS.map((name) => [name, `__node_only_${name}`])),
  };
  const input =
    "file" in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: "ts" as const } };
  const result = await build({ ...options, ...input });
  const text = result.outputFiles![0]!.text;
  return {
    text,
    inputs: Object.keys(result.metafile!.inputs),
    nodeOnly: [...new Set(text.match(/__node_only_\w+/g) ?? [])],
  };
}

type FetchHandler = (request: Request) => Promise<Response>;

function webPost(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A bare V8 context with the web globals Workers offer and nothing else (no Buffer, process, setImmediate or
 * require; no eval or new Function), with `bundle` loaded. Timers and random draws are logged, so a test can tell
 * module scope (before any request) from request time.
 */
function webSandbox(bundleText: string) {
  const log: string[] = [];
  const traced =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      log.push(name);
      return fn(...args);
    };
  const webCrypto = {
    getRandomValues: traced("getRandomValues", <T extends ArrayBufferView>(array: T) => crypto.getRandomValues(array)),
    randomUUID: traced("randomUUID", () => crypto.randomUUID()),
    subtle: crypto.subtle,
  };
  const globals = {
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    Request,
    Response,
    Headers,
    ReadableStream,
    ByteLengthQueuingStrategy,
    AbortController,
    AbortSignal,
    Event,
    EventTarget,
    queueMicrotask,
    atob,
    btoa,
    structuredClone,
    console,
    crypto: webCrypto,
    setTimeout: traced("setTimeout", setTimeout),
    clearTimeout,
    setInterval: traced("setInterval", setInterval),
    clearInterval,
  };
  const context = vm.createContext({ ...globals }, { codeGeneration: { strings: false, wasm: false } });
  vm.runInContext(bundleText, context);
  return {
    log,
    context,
    run: (code: string, extra: Record<string, unknown> = {}): unknown => {
      Object.assign(context, extra);
      return vm.runInContext(code, context);
    },
  };
}

describe("the web-standard HTTP entry", () => {
  it("the check itself catches a node: import and Node-only globals", async () => {
    await expect(
      bundle({ contents: 'import { randomBytes } from "node:crypto"; export const x = randomBytes(1);' }),
    ).rejects.toThrow(/node:crypto/);
    const globals = await bundle({
      contents: "export const b = Buffer.from('a'); export const p = typeof process; export const s = setImmediate;",
    });
    expect(globals.nodeOnly.sort()).toEqual(["__node_only_Buffer", "__node_only_process", "__node_only_setImmediate"]);
    // A property or method that merely shares the name is not a use of the global.
    expect(
      (
        await bundle({
          contents: "export const o = { process(x: number) { return x; } }; export const b = o.process(1);",
        })
      ).nodeOnly,
    ).toEqual([]);
  });

  it("bundles for a neutral platform with no node: import and no Node-only global", async () => {
    const { inputs, nodeOnly } = await bundle({ file: WEB_ENTRY });
    expect(inputs).toContain("runtime/http/server/handler.ts");
    expect(inputs).toContain("runtime/http/server/web.ts");
    expect(inputs).not.toContain("runtime/http/server/node.ts");
    expect(inputs.filter((i) => i.startsWith("node:"))).toEqual([]);
    expect(nodeOnly).toEqual([]);
  }, 60_000);

  it("builds the handler at module scope without timers or randomness, then serves requests", async () => {
    const { text } = await bundle({ file: WEB_ENTRY });
    const sandbox = webSandbox(text);
    // Module scope of a worker: the handler and the fetch function are built before any request.
    sandbox.context["host"] = new FixtureHost();
    const module = sandbox.run("({ handler: new webEntry.McpHttpHandler(host) })") as {
      handler: { close(): Promise<void> };
    };
    const fetchHandler = sandbox.run("webEntry.toFetchHandler(globalThis.module.handler)", { module }) as FetchHandler;
    expect(sandbox.log).toEqual([]);

    const init = await fetchHandler(webPost(initializeMessage(1)));
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await init.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "fixture" } } });
    // Inside the request: the session id drew random bytes, and the idle sweeper started.
    expect(sandbox.log).toContain("getRandomValues");
    expect(sandbox.log).toContain("setInterval");
    const ping = await fetchHandler(webPost({ jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": session }));
    expect(await ping.json()).toMatchObject({ id: 2, result: {} });
    await module.handler.close();
  }, 60_000);

  it("a worker's whole graph (McpServer and the web entry) builds at module scope and serves both eras", async () => {
    const { text, nodeOnly } = await bundle({
      contents:
        'export { McpServer } from "./runtime/server/server.ts"; export { builtinRevisions } from "./runtime/protocol/builtin-revisions.ts"; export * from "./runtime/http/web-entry.ts";',
    });
    expect(nodeOnly).toEqual([]);
    const sandbox = webSandbox(text);
    const fetchHandler = sandbox.run(`
      const server = new webEntry.McpServer({ info: { name: "worker", version: "1.0.0" }, revisions: webEntry.builtinRevisions }).tool(
        { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
        ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
      );
      webEntry.toFetchHandler(new webEntry.McpHttpHandler(server));
    `) as FetchHandler;
    expect(sandbox.log).toEqual([]);

    const add = (id: number, meta?: object) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "add", arguments: { a: 2, b: 3 }, ...(meta ? { _meta: meta } : {}) },
    });
    const statelessHeaders = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "add" };
    const stateless = await fetchHandler(webPost(add(1, modernMeta()), statelessHeaders));
    expect(stateless.status).toBe(200);
    expect(await stateless.json()).toMatchObject({ id: 1, result: { content: [{ text: "5" }] } });

    const init = await fetchHandler(webPost(initializeMessage(2)));
    const session = init.headers.get("mcp-session-id")!;
    expect(await init.json()).toMatchObject({ id: 2, result: { serverInfo: { name: "worker" } } });
    const inSession = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await (await fetchHandler(webPost({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession))).text();
    const called = await fetchHandler(webPost(add(3), inSession));
    expect(await called.json()).toMatchObject({ id: 3, result: { content: [{ text: "5" }] } });
  }, 60_000);
});
