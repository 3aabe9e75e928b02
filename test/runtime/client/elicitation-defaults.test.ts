/**
 * SEP-1034 on the client: an accepted form elicitation gets the `default` of every requested field the user's
 * handler left out, in both eras (a real server→client request in 2025-11-25, an input round in 2026-07-28);
 * values the handler did give are kept, declined answers are untouched, and `applyElicitationDefaults: false` opts out.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  type ElicitResult,
} from "../../../runtime/index.ts";

// The five fields of the conformance suite's sep1034 scenario, with the types its checks expect.
const REQUESTED = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    nickname: { type: "string" },
  },
} as const;

async function ask(revision: string, answer: ElicitResult, applyElicitationDefaults?: boolean): Promise<unknown> {
  let seen: unknown;
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "defaults-server", version: "1" } });
  server.tool({ name: "form", inputSchema: { type: "object" } }, async (_args, ctx) => {
    seen = await ctx.elicit({ mode: "form", message: "Your details", requestedSchema: REQUESTED }, { key: "form" });
    return { content: [{ type: "text", text: "ok" }] };
  });
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    info: { name: "defaults-client", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
    handlers: {
      elicitation: () => answer,
      ...(applyElicitationDefaults === undefined ? {} : { applyElicitationDefaults }),
    },
  });
  await client.connect(a);
  try {
    await client.callTool("form", {});
    return seen;
  } finally {
    await client.close();
  }
}

describe.each(["2025-11-25", "2026-07-28"])("elicitation defaults (%s)", (revision) => {
  it("fills every omitted field that has a default and keeps the given ones", async () => {
    expect(await ask(revision, { action: "accept", content: { name: "Ada", score: 1 } })).toEqual({
      action: "accept",
      content: { name: "Ada", age: 30, score: 1, status: "active", verified: true },
    });
  });

  it("fills an accept without content", async () => {
    expect(await ask(revision, { action: "accept" })).toEqual({
      action: "accept",
      content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true },
    });
  });

  it("leaves declined answers and opted-out clients alone", async () => {
    expect(await ask(revision, { action: "decline" })).toEqual({ action: "decline" });
    expect(await ask(revision, { action: "accept", content: { name: "Ada" } }, false)).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
  });
});
