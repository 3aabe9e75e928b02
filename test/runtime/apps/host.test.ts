/**
 * The MCP Apps host side without a browser: `AppHost` over our client, connected to a real server process (the
 * generated server of test/manifest/golden/apps, test/runtime/apps/fixtures/forecast-server.ts), renders a view for
 * a tool call. The views are real too: the generated view module of that manifest (view-forecast.ts) and a view built
 * with the official `App` class of `@modelcontextprotocol/ext-apps`, each joined to the host by a `MessageChannel`
 * (view-channel.ts). Oracles: the view files on disk, the fixture server's documented rule (celsius = the city
 * name's length), the spec's rules (no message to a view before it initialized, app-only and model-only tools).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { App } from "@modelcontextprotocol/ext-apps";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../../runtime/index.ts";
import { StdioClientTransport } from "../../../runtime/node.ts";
import { AppHost, AppViewError, appsClient, type AppHostOptions } from "../../../runtime/apps/index.ts";
import { createForecastView, typedForecastApp } from "../../manifest/golden/apps/expected/view-forecast.ts";
import { ViewRequestError } from "../../manifest/golden/apps/expected/app-view.ts";
import { nodeArgs } from "../../fixture-run.ts";
import { appViewChannel, generatedViewChannel } from "./view-channel.ts";

const GOLDEN = path.resolve(import.meta.dirname, "../../manifest/golden/apps");
const SERVER = path.join(import.meta.dirname, "fixtures/forecast-server.ts");

let client: McpClient;
const closers: (() => unknown)[] = [];

beforeEach(async () => {
  client = new McpClient({
    info: { name: "apps-host-test", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === "2025-11-25"),
    extensions: [appsClient()],
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: nodeArgs(SERVER) }));
}, 120_000);

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await client.close();
});

/** A promise and the function that settles it: the test waits on the event, not on time. */
function event<T>(): { promise: Promise<T>; fire: (value: T) => void } {
  let fire!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (fire = resolve));
  return { promise, fire };
}

const hostOptions = (extra: Partial<AppHostOptions> = {}): AppHostOptions => ({
  hostInfo: { name: "test-host", version: "1.0.0" },
  hostContext: { theme: "dark", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"] },
  ...extra,
});

describe("AppHost", () => {
  it("reads a tool's view with its CSP and allow attribute; a tool without one is refused", async () => {
    const host = new AppHost(client, hostOptions());
    const view = await host.readView("get_forecast");
    expect(view.uri).toBe("ui://apps-golden/forecast");
    expect(view.html).toBe(readFileSync(path.join(GOLDEN, "views/forecast.html"), "utf8"));
    expect(view.meta).toMatchObject({ prefersBorder: true, domain: "forecast.example-sandbox.com" });
    expect(view.csp.policy).toContain("connect-src https://api.example.com;");
    expect(view.csp.policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example.com;");
    expect(view.allow).toBe("clipboard-write");
    const plain = await host.readView("show_plain");
    expect(plain.html).toBe(readFileSync(path.join(GOLDEN, "views/plain.html"), "utf8"));
    expect(plain.csp.policy).toContain("connect-src 'none'");
    await expect(host.readView("summarize")).rejects.toBeInstanceOf(AppViewError);
    await expect(host.readView("summarize")).rejects.toThrow("tool summarize has no view");
  });

  it("hosts the generated view: typed input and result, proxied calls, display modes, size, teardown", async () => {
    const sized = event<unknown>();
    const host = new AppHost(client, hostOptions({ onSizeChanged: (size) => sized.fire(size) }));
    const tool = (await host.tools()).find((t) => t.name === "get_forecast")!;
    const channel = generatedViewChannel();
    closers.push(() => channel.close());
    const session = host.open(channel.port, tool);
    // Sent before the view exists: the host must hold it until the view initialized.
    session.sendToolInput({ city: "Early" });

    const view = createForecastView({ host: channel.hostWindow, availableDisplayModes: ["inline", "fullscreen"] });
    const inputs: unknown[] = [];
    const result = event<unknown>();
    const contexts: unknown[] = [];
    view.onToolInput((input) => inputs.push(input));
    view.onToolResult((r) => result.fire(r));
    view.onHostContextChanged((c) => contexts.push(c.displayMode));
    const context = await view.connect();
    expect(context).toMatchObject({ theme: "dark", toolInfo: { tool: { name: "get_forecast" } } });
    await session.initialized;
    expect(session.appInfo).toEqual({ name: "forecast", version: "1" });

    const ran = await host.run(session, { city: "Oslo" });
    expect(ran.structuredContent).toEqual({ city: "Oslo", celsius: 4 });
    expect(await result.promise).toMatchObject({ structuredContent: { city: "Oslo", celsius: 4 } });
    expect(inputs).toEqual([{ city: "Early" }, { city: "Oslo" }]);
    // The view's first message from the host is the answer to ui/initialize: nothing came before it.
    expect(channel.received[0]).toMatchObject({ jsonrpc: "2.0", result: { protocolVersion: "2026-01-26" } });

    const refreshed = await view.callTool("refresh_forecast", { city: "Bergen" });
    expect(refreshed.content).toEqual([{ type: "text", text: "refreshed Bergen" }]);
    const modelOnly = view.callTool("summarize" as never, {} as never);
    await expect(modelOnly).rejects.toBeInstanceOf(ViewRequestError);
    await expect(modelOnly).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('no "app"') });

    expect(await view.requestDisplayMode("fullscreen")).toBe("fullscreen");
    expect(await view.requestDisplayMode("pip")).toBe("fullscreen");
    expect(session.hostContext.displayMode).toBe("fullscreen");
    expect(contexts).toEqual(["fullscreen"]);

    view.sendSizeChanged({ width: 320, height: 240 });
    expect(await sized.promise).toEqual({ width: 320, height: 240 });

    const tornDown = event<void>();
    view.onTeardown(() => tornDown.fire());
    await session.teardown();
    await tornDown.promise;
    expect(session.closed).toBe(true);
    view.close();
  });

  it("hosts a view built with the official App class, typed by typedForecastApp", async () => {
    const host = new AppHost(client, hostOptions());
    const tool = (await host.tools()).find((t) => t.name === "get_forecast")!;
    const channel = appViewChannel();
    closers.push(() => channel.close());
    const session = host.open(channel.port, tool, { toolCallId: 7 });

    const official = new App({ name: "official-forecast", version: "2.0.0" }, {}, { autoResize: false });
    const app = typedForecastApp(official);
    expect(app).toBe(official);
    const input = event<unknown>();
    const result = event<unknown>();
    app.ontoolinput = (params) => input.fire(params.arguments);
    app.ontoolresult = (params) => result.fire(params.structuredContent);
    await app.connect(channel.transport);
    expect(app.getHostContext()).toMatchObject({ toolInfo: { id: 7, tool: { name: "get_forecast" } } });
    expect(app.getHostVersion()).toEqual({ name: "test-host", version: "1.0.0" });
    expect(app.getHostCapabilities()).toEqual({ serverTools: {}, serverResources: {} });
    await session.initialized;
    expect(session.appInfo).toEqual({ name: "official-forecast", version: "2.0.0" });

    await host.run(session, { city: "Reykjavik" });
    expect(await input.promise).toEqual({ city: "Reykjavik" });
    expect(await result.promise).toEqual({ city: "Reykjavik", celsius: 9 });

    const refreshed = await app.callServerTool({ name: "refresh_forecast", arguments: { city: "Tromsø" } });
    expect(refreshed.content).toEqual([{ type: "text", text: "refreshed Tromsø" }]);
    // A model-only tool: a compile error for the typed App, refused by the host for any script that sends it anyway.
    await expect(official.callServerTool({ name: "summarize", arguments: {} })).rejects.toThrow('no "app"');
    const read = await app.readServerResource({ uri: "ui://apps-golden/plain.html" });
    expect(read.contents[0]).toMatchObject({ text: readFileSync(path.join(GOLDEN, "views/plain.html"), "utf8") });

    const tornDown = event<void>();
    app.onteardown = () => (tornDown.fire(), {});
    await session.teardown();
    await tornDown.promise;
    await app.close();
  });

  it("answers malformed and unknown requests with JSON-RPC errors and keeps serving", async () => {
    const host = new AppHost(client, hostOptions());
    const tool = (await host.tools()).find((t) => t.name === "get_forecast")!;
    const channel = appViewChannel();
    closers.push(() => channel.close());
    host.open(channel.port, tool);
    const answers = new Map<unknown, unknown>();
    const done = event<void>();
    channel.raw.addEventListener("message", ({ data }) => {
      const message = data as { id?: unknown; error?: unknown };
      answers.set(message.id, message.error);
      if (answers.size === 5) done.fire();
    });
    channel.raw.postMessage({ jsonrpc: "2.0", id: 1, method: 7 });
    channel.raw.postMessage({ jsonrpc: "2.0", id: 2, method: "ui/initialize", params: { appInfo: "x" } });
    channel.raw.postMessage({ jsonrpc: "2.0", id: 3, method: "ui/open-link", params: { url: "https://x.test" } });
    channel.raw.postMessage({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nothing" } });
    channel.raw.postMessage({ jsonrpc: "2.0", id: 5, method: "ping" });
    channel.raw.postMessage("not JSON-RPC");
    await done.promise;
    expect(answers.get(1)).toMatchObject({ code: -32600 });
    expect(answers.get(2)).toMatchObject({ code: -32602, message: expect.stringContaining("ui/initialize") });
    expect(answers.get(3)).toMatchObject({ code: -32601 });
    expect(answers.get(4)).toMatchObject({ code: -32602, message: "Unknown tool: nothing" });
    expect(answers.get(5)).toBeUndefined();
    expect(answers.has(5)).toBe(true);
  });
});
