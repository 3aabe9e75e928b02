/**
 * MCP Apps on a generated server (test/manifest/golden/apps): a client declaring `io.modelcontextprotocol/ui` sees
 * every tool with its `_meta.ui` and the deprecated flat key, reads each view as a `ui://` resource of mimeType
 * `text/html;profile=mcp-app` with its `_meta.ui`, and finds the extension in the server's capabilities; a client
 * that does not declare it sees ordinary tools (no `_meta.ui`, no app-only tool, whose call is an unknown tool).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinRevisions, createMemoryTransportPair, McpClient, RpcError } from "../../../runtime/index.ts";
import { extension as appsExtension } from "../../../runtime/generated/extensions/apps/index.ts";
import { createServer } from "../../manifest/golden/apps/expected/index.ts";

const GOLDEN = path.resolve(import.meta.dirname, "../../manifest/golden/apps");
const MIME = "text/html;profile=mcp-app";

async function connect(declaresApps: boolean) {
  const server = createServer({
    tools: {
      get_forecast: ({ city }) => ({ content: [], structuredContent: { city, celsius: 21 } }),
      refresh_forecast: ({ city }) => ({ content: [{ type: "text", text: `refreshed ${city}` }] }),
      summarize: () => ({ content: [{ type: "text", text: "sunny" }] }),
      show_plain: () => ({ content: [] }),
    },
  });
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    info: { name: declaresApps ? "ui-host" : "text-client", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === "2025-11-25"),
    ...(declaresApps ? { extensions: [appsExtension] } : {}),
  });
  await client.connect(a);
  return client;
}

describe("a generated server with views", () => {
  it("shows a client declaring MCP Apps every tool with _meta.ui and serves the views", async () => {
    const client = await connect(true);
    expect((client.serverCapabilities["extensions"] as Record<string, unknown>)["io.modelcontextprotocol/ui"]).toEqual(
      {},
    );
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((t) => [t.name, (t as { _meta?: unknown })._meta]));
    expect(meta).toEqual({
      get_forecast: {
        ui: { resourceUri: "ui://apps-golden/forecast" },
        "ui/resourceUri": "ui://apps-golden/forecast",
      },
      refresh_forecast: {
        ui: { resourceUri: "ui://apps-golden/forecast", visibility: ["app"] },
        "ui/resourceUri": "ui://apps-golden/forecast",
      },
      summarize: { ui: { visibility: ["model"] } },
      show_plain: {
        ui: { resourceUri: "ui://apps-golden/plain.html", visibility: ["model", "app"] },
        "ui/resourceUri": "ui://apps-golden/plain.html",
      },
    });
    const uiMeta = {
      ui: {
        csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com"] },
        permissions: { clipboardWrite: {} },
        domain: "forecast.example-sandbox.com",
        prefersBorder: true,
      },
    };
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: "ui://apps-golden/forecast", name: "forecast", title: "Forecast card", mimeType: MIME, _meta: uiMeta },
      { uri: "ui://apps-golden/plain.html", name: "plain", mimeType: MIME },
    ]);
    const read = await client.readResource("ui://apps-golden/forecast");
    expect(read.contents).toEqual([
      {
        uri: "ui://apps-golden/forecast",
        mimeType: MIME,
        text: readFileSync(path.join(GOLDEN, "views/forecast.html"), "utf8"),
        _meta: uiMeta,
      },
    ]);
    const refreshed = await client.callTool("refresh_forecast", { city: "Oslo" });
    expect(refreshed.content).toEqual([{ type: "text", text: "refreshed Oslo" }]);
    await client.close();
  });

  it("shows a client without MCP Apps ordinary tools, and an app-only tool does not exist for it", async () => {
    const client = await connect(false);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_forecast", "summarize", "show_plain"]);
    for (const tool of tools) expect(tool).not.toHaveProperty("_meta");
    const call = client.callTool("refresh_forecast", { city: "Oslo" });
    await expect(call).rejects.toBeInstanceOf(RpcError);
    await expect(call).rejects.toThrow("Unknown tool: refresh_forecast");
    const forecast = await client.callTool("get_forecast", { city: "Oslo" });
    expect(forecast.structuredContent).toEqual({ city: "Oslo", celsius: 21 });
    await client.close();
  });
});
