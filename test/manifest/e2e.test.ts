/**
 * End to end over real processes and real bytes: the generated weather and everything clients talk to their
 * generated servers over stdio; output validation, the manifest's tool scopes over HTTP bearer auth and `__proto__`
 * keys are checked in-process.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, ToolCallError, createMemoryTransportPair } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { serve } from "../../runtime/http/index.ts";
import { textOf } from "../text-of.ts";
import * as protoKey from "./golden/proto-key/expected/index.ts";
import * as everything from "../../examples/everything/generated/index.ts";
import * as weather from "../../examples/weather/generated/index.ts";
import { handlers as weatherHandlers } from "../../examples/weather/handlers.ts";
import { nodeArgs } from "../fixture-run.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function connectStdio(entry: string): Promise<McpClient> {
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "e2e", version: "1.0.0" } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: nodeArgs(path.join(REPO, entry)),
      cwd: REPO,
      stderr: "ignore",
    }),
  );
  return client;
}

describe("generated weather client ↔ generated weather server over stdio", () => {
  let raw: McpClient;
  let client: weather.TypedClient;
  beforeAll(async () => {
    raw = await connectStdio("examples/weather/server.ts");
    client = weather.createClient(raw);
  });
  afterAll(async () => {
    await raw?.close();
  });

  it("a structured tool returns its typed, validated output", async () => {
    const forecast = await client.tools.getForecast({ city: "Paris", days: 2, units: "imperial" });
    expect(forecast.structuredContent.city).toBe("Paris");
    expect(forecast.structuredContent.units).toBe("imperial");
    expect(forecast.structuredContent.days.map((d) => d.date)).toEqual(["2026-01-01", "2026-01-02"]);
    // The server filled in `content` with the JSON text of structuredContent.
    expect(JSON.parse(String(textOf(forecast.result.content[0])))).toEqual(forecast.structuredContent);
  });

  it("inputs are validated by the server, including keywords only JSON Schema can check", async () => {
    // minLength (checked by the JSON Schema refinement) and a closed object (zod strictObject).
    await expect(client.tools.getForecast({ city: "" })).rejects.toThrow(
      /get_forecast failed: Invalid arguments.*fewer than 1 characters/,
    );
    await expect(client.tools.getForecast({ city: "Paris", extra: 1 } as never)).rejects.toThrow(/Invalid arguments/);
    await expect(client.tools.getAlerts({ region: "norway" })).rejects.toThrow(/Invalid arguments/);
    const alerts = await client.tools.getAlerts({ region: "NO" });
    expect(alerts.structuredContent.alerts[0]?.severity).toBe("moderate");
  });

  it("content-only tools, resources, templates, prompts and completions", async () => {
    const converted = await client.tools.convertTemperature({ value: 20, to: "fahrenheit" });
    expect(converted.content).toEqual([{ type: "text", text: "68°F" }]);
    const stations = await client.resources["weather://stations"]();
    expect(JSON.parse(String(textOf(stations.contents[0]))).map((s: { city: string }) => s.city)).toEqual([
      "Paris",
      "Oslo",
      "Lima",
    ]);
    const current = await client.resourceTemplates.currentConditions({ city: "Oslo" });
    expect(current.contents[0]?.uri).toBe("weather://Oslo/current");
    expect(JSON.parse(String(textOf(current.contents[0]))).city).toBe("Oslo");
    const prompt = await client.prompts.planTrip({ city: "Lima", activity: "surfing" });
    expect(textOf(prompt.messages[0]?.content)).toBe("Plan a day in Lima around surfing. Check get_forecast first.");
    const completion = await raw.complete({
      ref: { type: "ref/prompt", name: "plan_trip" },
      argument: { name: "city", value: "o" },
    });
    expect(completion.completion.values).toEqual(["Oslo"]);
  });

  it("tools/list serves every schema exactly as the manifest declares it", async () => {
    const manifest = parse(await readFile(path.join(REPO, "examples/weather/mcp.yaml"), "utf8")) as {
      tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[];
    };
    const tools = await raw.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(manifest.tools.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      expect(tool.inputSchema).toEqual(manifest.tools[i]!.inputSchema);
      expect(tool.outputSchema).toEqual(manifest.tools[i]!.outputSchema);
    }
  });
});

describe("output validation", () => {
  it("a handler whose structuredContent breaks the outputSchema at run time yields an error result, not bad data", async () => {
    const server = weather.createServer({
      ...weatherHandlers,
      tools: {
        ...weatherHandlers.tools,
        // Only reachable by defeating the types (the type tests prove the honest version does not compile).
        get_forecast: () => ({ structuredContent: { city: "Paris", units: "kelvin", days: [] } }) as never,
      },
    });
    const [serverSide, clientSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const raw = new McpClient({ revisions: builtinRevisions, info: { name: "e2e", version: "1.0.0" } });
    await raw.connect(clientSide);
    const result = await raw.callTool("get_forecast", { city: "Paris" });
    expect(result.isError).toBe(true);
    expect(textOf(result.content[0])).toMatch(
      /structuredContent that does not match its outputSchema: structuredContent\.units/,
    );
    await raw.close();
    await server.close();
  });
});

describe("generated everything client ↔ everything server (conformance contract) over stdio", () => {
  let raw: McpClient;
  beforeAll(async () => {
    raw = await connectStdio("examples/everything/server.ts");
  });
  afterAll(async () => {
    await raw?.close();
  });

  it("serves the contract's tools, resources, templates and prompts", async () => {
    const client = everything.createClient(raw);
    expect((await client.tools.testSimpleText()).content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);
    expect((await client.tools.testAudioContent()).content[0]).toMatchObject({
      type: "audio",
      mimeType: "audio/wav",
    });
    // A tool's isError answer rejects, as it does for a tool with an outputSchema; the error keeps the content.
    const failed: unknown = await client.tools.testErrorHandling().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ToolCallError);
    expect(textOf((failed as ToolCallError).content[0])).toBe("This tool intentionally returns an error for testing");
    const data = await client.resourceTemplates.templateData({ id: "123" });
    expect(JSON.parse(String(textOf(data.contents[0])))).toEqual({
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
    const prompt = await client.prompts.testPromptWithArguments({ arg1: "testValue1", arg2: "testValue2" });
    expect(textOf(prompt.messages[0]?.content)).toBe("Prompt with arguments: arg1='testValue1', arg2='testValue2'");
  });

  it("keeps $schema, $defs, $anchor, allOf and if/then/else of the 2020-12 tool intact", async () => {
    const tool = (await raw.listAllTools()).find((t) => t.name === "json_schema_2020_12_tool");
    expect(tool?.inputSchema).toEqual(everything.jsonSchemas.JsonSchema202012ToolInput);
    expect(tool?.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { address: { $anchor: "addressDef" } },
      properties: { address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
    });
  });
});

describe("the everything handlers ask the client through the context, in both eras", () => {
  async function connect(revision: string): Promise<McpClient> {
    const raw = new McpClient({
      info: { name: "e2e", version: "1.0.0" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
      handlers: {
        elicitation: () => ({
          action: "accept",
          content: { name: "Ada", username: "ada", email: "ada@example.com", ok: true, color: "green", context: "c" },
        }),
        sampling: () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" }),
        roots: () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }),
      },
    });
    await raw.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: nodeArgs(path.join(REPO, "examples/everything/server.ts")),
        cwd: REPO,
        stderr: "ignore",
      }),
    );
    return raw;
  }

  it("2025-11-25: sampling, elicitation and progress are real requests and notifications", async () => {
    const raw = await connect("2025-11-25");
    try {
      const client = everything.createClient(raw);
      expect(textOf((await client.tools.testSampling({ prompt: "Capital of France?" })).content[0])).toBe(
        "LLM response: Paris",
      );
      expect(String(textOf((await client.tools.testElicitation({ message: "Who are you?" })).content[0]))).toContain(
        '"username":"ada"',
      );
      const progress: number[] = [];
      await client.tools.testToolWithProgress({}, { onProgress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([0, 50, 100]);
    } finally {
      await raw.close();
    }
  });

  it("2026-07-28: the same handlers run as multi round-trip input requests", async () => {
    const raw = await connect("2026-07-28");
    try {
      const client = everything.createClient(raw);
      expect(textOf((await client.tools.testInputRequiredResultElicitation({})).content[0])).toBe("Hello, Ada!");
      expect(textOf((await client.tools.testInputRequiredResultMultiRound({})).content[0])).toBe("Ada likes green");
      expect(textOf((await client.tools.testInputRequiredResultListRoots({})).content[0])).toBe("Roots: file:///tmp");
    } finally {
      await raw.close();
    }
  });
});

describe("the manifest's tool scopes reach HTTP bearer auth by default", () => {
  it("a generated server served with auth (no toolScopes option) enforces each tool's manifest scopes", async () => {
    const granted: Record<string, string[]> = { reader: ["mcp"], alerts: ["mcp", "weather:alerts"] };
    const running = await serve(weather.createServer(weatherHandlers), {
      sessions: false,
      auth: {
        verifyToken: (token) => (granted[token] ? { token, scopes: granted[token], claims: {} } : undefined),
        resourceMetadata: { resource: "http://127.0.0.1/mcp", authorization_servers: ["https://issuer.example"] },
      },
    });
    const call = (token: string, name: string, args: object) =>
      fetch(running.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      });
    try {
      expect(weather.toolScopes).toEqual({ get_alerts: ["weather:alerts"] });
      const denied = await call("reader", "get_alerts", { region: "NO" });
      expect(denied.status).toBe(403);
      expect(denied.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/);
      expect(denied.headers.get("www-authenticate")).toMatch(/scope="weather:alerts"/);
      const allowed = await call("alerts", "get_alerts", { region: "NO" });
      expect(allowed.status).toBe(200);
      expect((await allowed.json()).result.structuredContent.alerts[0].severity).toBe("moderate");
      // A tool without manifest scopes needs none beyond the token.
      const open = await call("reader", "get_forecast", { city: "Paris" });
      expect(open.status).toBe(200);
      expect((await open.json()).result.structuredContent.city).toBe("Paris");
    } finally {
      await running.close();
    }
  });
});

describe("a property named __proto__ survives in validators and served schemas", () => {
  const input = (json: string) => protoKey.KeysInputSchema.safeParse(JSON.parse(json));

  it("is validated as declared and kept as an own property of the parsed value", () => {
    const parsed = input('{"__proto__": "ab", "plain": true}');
    expect(parsed.success).toBe(true);
    const data = parsed.data!;
    expect(Object.getOwnPropertyDescriptor(data, "__proto__")?.value).toBe("ab");
    expect(data["__proto__"]).toBe("ab");
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(data.plain).toBe(true);
  });

  it("rejects a missing or wrong __proto__ (and the closed object still rejects unknown keys)", () => {
    const issues = (json: string) => {
      const parsed = input(json);
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues('{"plain": true}')).toEqual(["__proto__: Required"]);
    expect(issues('{"__proto__": 5}')).toEqual([expect.stringMatching(/^__proto__: Invalid option/)]);
    expect(issues('{"__proto__": "zz"}')).toEqual([expect.stringMatching(/^__proto__: Invalid option/)]);
    expect(issues('{"__proto__": "ab", "extra": true}')).toEqual([expect.stringMatching(/Unrecognized key/)]);
  });

  it("checks a nested __proto__ object in the output and serves the schema with the key", () => {
    expect(protoKey.KeysOutputSchema.safeParse(JSON.parse('{"__proto__": {"polluted": "yes"}}')).success).toBe(false);
    const parsed = protoKey.KeysOutputSchema.safeParse(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(parsed.success && Object.getOwnPropertyDescriptor(parsed.data, "__proto__")?.value).toEqual({
      polluted: true,
    });
    expect({} as Record<string, unknown>).not.toHaveProperty("polluted");
    const served = protoKey.toolDefinitions[0]!.inputSchema["properties"] as Record<string, unknown>;
    expect(Object.keys(served)).toEqual(["__proto__", "plain"]);
    expect(Object.getOwnPropertyDescriptor(served, "__proto__")?.value).toEqual({ type: "string", enum: ["ab", "cd"] });
  });
});
