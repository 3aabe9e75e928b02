/**
 * The checks a registration carries, whoever registers: a tool's input and output, a resource template's variables.
 * Raw frames on the wire (stateless era), so the server's own answer is seen, not a client's reading of it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinRevisions, McpServer } from "../../../runtime/index.ts";
import { ScriptedTransport } from "../helpers.ts";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

async function serve(register: (server: McpServer) => void) {
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "checks", version: "1.0.0" } });
  register(server);
  const t = new ScriptedTransport();
  await server.connect(t);
  let id = 0;
  return async (method: string, params: Record<string, unknown>): Promise<Answer> => {
    const before = t.sent.length;
    t.inject({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } });
    await t.waitForSent(before + 1, 10_000);
    return t.sent[before] as Answer;
  };
}

const report = {
  name: "report",
  inputSchema: { type: "object" as const },
  outputSchema: {
    type: "object" as const,
    properties: { total: { type: "integer" }, unit: { enum: ["ms", "s"] } },
    required: ["total", "unit"],
  },
};
const textOf = (answer: Answer) => (answer.result?.["content"] as { text: string }[] | undefined)?.[0]?.text;

describe("a hand-registered tool's output", () => {
  it("structuredContent that breaks the definition's outputSchema is an error result naming the field", async () => {
    const ask = await serve((server) =>
      server.tool(report, () => ({ content: [], structuredContent: { total: 1.5, unit: "h" } })),
    );
    const answer = await ask("tools/call", { name: "report", arguments: {} });
    expect(answer.result?.["isError"]).toBe(true);
    expect(answer.result?.["structuredContent"]).toBeUndefined();
    const text = textOf(answer);
    expect(text).toContain("tool report returned structuredContent that does not match its outputSchema");
    expect(text).toContain("structuredContent.total: must be integer");
    expect(text).toContain("structuredContent.unit: must be equal to one of the allowed values");
  });

  it("a missing structuredContent is an error too (the spec: structured results MUST conform)", async () => {
    const ask = await serve((server) =>
      server.tool(report, async () => ({ content: [{ type: "text", text: "no structure" }] })),
    );
    const answer = await ask("tools/call", { name: "report", arguments: {} });
    expect(answer.result?.["isError"]).toBe(true);
    expect(textOf(answer)).toContain("does not match its outputSchema");
  });

  it("a conforming result passes unchanged; a handler's own isError result is not checked", async () => {
    const ask = await serve((server) => {
      server.tool(report, () => ({
        content: [{ type: "text", text: "3 s" }],
        structuredContent: { total: 3, unit: "s" },
      }));
      server.tool({ ...report, name: "broken" }, () => ({ content: [{ type: "text", text: "down" }], isError: true }));
    });
    expect((await ask("tools/call", { name: "report", arguments: {} })).result).toMatchObject({
      content: [{ type: "text", text: "3 s" }],
      structuredContent: { total: 3, unit: "s" },
    });
    expect((await ask("tools/call", { name: "broken", arguments: {} })).result).toMatchObject({
      content: [{ type: "text", text: "down" }],
      isError: true,
    });
  });

  it("an `output` validator replaces the JSON Schema check, and fills in content the handler left out", async () => {
    const ask = await serve((server) =>
      server.tool(report, () => ({ structuredContent: { total: 12, unit: "ms" } }) as never, {
        output: z.object({ total: z.number().max(10), unit: z.string() }),
      }),
    );
    const answer = await ask("tools/call", { name: "report", arguments: {} });
    expect(answer.result?.["isError"]).toBe(true);
    expect(textOf(answer)).toContain("structuredContent.total:");
    const ok = await serve((server) =>
      server.tool(report, () => ({ structuredContent: { total: 2, unit: "s" } }) as never, {
        output: z.object({ total: z.number(), unit: z.string() }),
      }),
    );
    expect((await ok("tools/call", { name: "report", arguments: {} })).result).toMatchObject({
      content: [{ type: "text", text: '{"total":2,"unit":"s"}' }],
      structuredContent: { total: 2, unit: "s" },
    });
  });
});

describe("a resource template's variables", () => {
  const template = { name: "day", uriTemplate: "cal://day/{date}" };
  const Variables = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

  it("go through the registration's `variables` validator: a bad one is -32602 naming it, a good one reaches the handler", async () => {
    const seen: unknown[] = [];
    const ask = await serve((server) =>
      server.resourceTemplate(
        template,
        (uri, variables) => {
          seen.push(variables);
          return { contents: [{ uri, text: variables.date }] };
        },
        { variables: Variables },
      ),
    );
    const bad = await ask("resources/read", { uri: "cal://day/tomorrow" });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain("resource template cal://day/{date}");
    expect(bad.error?.message).toContain("variables.date:");
    expect(seen).toEqual([]);
    const good = await ask("resources/read", { uri: "cal://day/2026-12-01" });
    expect(good.result?.["contents"]).toEqual([{ uri: "cal://day/2026-12-01", text: "2026-12-01" }]);
    expect(seen).toEqual([{ date: "2026-12-01" }]);
  });
});
