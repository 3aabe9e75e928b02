/**
 * The protocol shapes the runtime's API names (`CallToolResult`, `ToolDefinition`, …) are the generated types of the
 * built-in revisions, not hand-written copies: each result alias is exactly the union of the revisions' own result
 * types (listed here by hand from runtime/generated/protocol/<rev>/types.ts), definitions accept every revision's and read
 * any revision's optional fields without narrowing, and content narrows on `type`. Type assertions are checked by
 * tsc (`@ts-expect-error` lines fail it when they stop being errors); the run-time part serves one definition to a
 * 2024-11-05 and a 2026-07-28 client.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as T1105 from "../../../runtime/generated/protocol/2024-11-05/types.ts";
import type * as T0326 from "../../../runtime/generated/protocol/2025-03-26/types.ts";
import type * as T0618 from "../../../runtime/generated/protocol/2025-06-18/types.ts";
import type * as T1125 from "../../../runtime/generated/protocol/2025-11-25/types.ts";
import type * as T0728 from "../../../runtime/generated/protocol/2026-07-28/types.ts";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  type CallToolResult,
  type CompleteResult,
  type ContentBlock,
  type GetPromptResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ResourceContents,
  type ToolDefinition,
  type ToolInputSchema,
} from "../../../runtime/index.ts";

describe("result aliases are the generated results of every built-in revision", () => {
  it("tools, resources, prompts and completions", () => {
    expectTypeOf<CallToolResult>().toEqualTypeOf<
      T1105.CallToolResult | T0326.CallToolResult | T0618.CallToolResult | T1125.CallToolResult | T0728.CallToolResult
    >();
    expectTypeOf<ListToolsResult>().toEqualTypeOf<
      | T1105.ListToolsResult
      | T0326.ListToolsResult
      | T0618.ListToolsResult
      | T1125.ListToolsResult
      | T0728.ListToolsResult
    >();
    expectTypeOf<ReadResourceResult>().toEqualTypeOf<
      | T1105.ReadResourceResult
      | T0326.ReadResourceResult
      | T0618.ReadResourceResult
      | T1125.ReadResourceResult
      | T0728.ReadResourceResult
    >();
    expectTypeOf<GetPromptResult>().toEqualTypeOf<
      | T1105.GetPromptResult
      | T0326.GetPromptResult
      | T0618.GetPromptResult
      | T1125.GetPromptResult
      | T0728.GetPromptResult
    >();
    expectTypeOf<CompleteResult>().toEqualTypeOf<
      T1105.CompleteResult | T0326.CompleteResult | T0618.CompleteResult | T1125.CompleteResult | T0728.CompleteResult
    >();
    expectTypeOf<ToolInputSchema>().toEqualTypeOf<T0728.Tool["inputSchema"]>();
  });
});

describe("definitions", () => {
  it("accept every revision's definition and read any revision's fields without narrowing", () => {
    expectTypeOf<T1105.Tool>().toMatchTypeOf<ToolDefinition>();
    expectTypeOf<T0618.Tool>().toMatchTypeOf<ToolDefinition>();
    expectTypeOf<T1125.Tool>().toMatchTypeOf<ToolDefinition>();
    expectTypeOf<T0728.Tool>().toMatchTypeOf<ToolDefinition>();
    // No member collapses: a definition with only the fields every revision has fits.
    const plain: ToolDefinition = { name: "t", inputSchema: { type: "object" } };
    expectTypeOf<ToolDefinition["name"]>().toEqualTypeOf<string>();
    expectTypeOf<ToolDefinition["title"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ToolDefinition["icons"]>>().toEqualTypeOf<T1125.Icon[] | T0728.Icon[]>();
    // What generated definitions.ts builds: a manifest schema typed ToolInputSchema, newer fields included.
    const schema: ToolInputSchema = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    };
    const generated: ToolDefinition = { name: "g", title: "G", inputSchema: schema, outputSchema: schema, icons: [] };
    // @ts-expect-error a tool needs an input schema
    const missing: ToolDefinition = { name: "m" };
    // @ts-expect-error an input schema describes an object
    const notObject: ToolDefinition = { name: "n", inputSchema: { type: "string" } };
    expect([plain, generated, missing, notObject].map((t) => t.name)).toEqual(["t", "g", "m", "n"]);
  });
});

describe("content narrows on its discriminant", () => {
  it("text blocks and text contents", () => {
    const text = (block: ContentBlock): string | undefined => (block.type === "text" ? block.text : undefined);
    const contents = (item: ResourceContents): string | undefined => ("text" in item ? item.text : undefined);
    // @ts-expect-error only a text block has `text`
    const blind = (block: ContentBlock): string => block.text;
    expect(text({ type: "text", text: "hi" })).toBe("hi");
    expect(text({ type: "image", data: "", mimeType: "image/png" })).toBeUndefined();
    expect(contents({ uri: "a://b", blob: "" })).toBeUndefined();
    expect(typeof blind).toBe("function");
  });
});

describe("one definition served to both eras", () => {
  it.each(["2024-11-05", "2026-07-28"])("%s: listTools reads title, callTool's content narrows", async (revision) => {
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "s", version: "1" } });
    server.tool({ name: "t", title: "T", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "ok" }],
    }));
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
    });
    await client.connect(a);
    const [tool] = await client.listAllTools();
    expect(tool?.name).toBe("t");
    expect(tool?.inputSchema).toEqual({ type: "object" });
    const result = await client.callTool("t");
    const first = result.content[0];
    expect(first?.type === "text" ? first.text : undefined).toBe("ok");
    await client.close();
  });
});
