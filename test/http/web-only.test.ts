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
import { FixtureHost } from "./fixtures/fixture-host.ts";
import { initializeMessage, JSON_HEADERS } from "./helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
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
    expect(inputs).toContain("runtime/http/handler.ts");
    expect(inputs).toContain("runtime/http/web.ts");
    expect(inputs).not.toContain("runtime/http/node.ts");
    expect(inputs.filter((i) => i.startsWith("node:"))).toEqual([]);
    expect(nodeOnly).toEqual([]);
  }, 60_000);

  it("builds the handler at module scope without timers or randomness, then serves requests", async () => {
    const { text } = await bundle({ file: WEB_ENTRY });
    const log: string[] = [];
    const traced =
      <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
      (...args: A): R => {
        log.push(name);
        return fn(...args);
      };
    const webCrypto = {
      getRandomValues: traced("getRandomValues", <T extends ArrayBufferView>(array: T) =>
        crypto.getRandomValues(array),
      ),
      randomUUID: traced("randomUUID", () => crypto.randomUUID()),
      subtle: crypto.subtle,
    };
    // Web globals only (what Workers offer); no Buffer, process, setImmediate or require; no eval or new Function.
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
    vm.runInContext(text, context);
    const host = new FixtureHost();
    // Module scope of a worker: the handler and the fetch function are built before any request.
    context["host"] = host;
    const module = vm.runInContext(
      "({ handler: new webEntry.McpHttpHandler(host), get fetch() { return webEntry.toFetchHandler(this.handler); } })",
      context,
    ) as { handler: { close(): Promise<void> }; fetch: (request: Request) => Promise<Response> };
    const fetchHandler = module.fetch;
    expect(log).toEqual([]);

    const init = await fetchHandler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(initializeMessage(1)),
      }),
    );
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await init.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "fixture" } } });
    // Inside the request: the session id drew random bytes, and the idle sweeper started.
    expect(log).toContain("getRandomValues");
    expect(log).toContain("setInterval");
    const ping = await fetchHandler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...JSON_HEADERS, "mcp-session-id": init.headers.get("mcp-session-id")! },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
      }),
    );
    expect(await ping.json()).toMatchObject({ id: 2, result: {} });
    await module.handler.close();
  }, 60_000);
});
