/**
 * `McpServer` / `McpClient` take their revisions as descriptors, required (so that a bundle of them holds only those
 * revisions, see test/edge/revision-bundle.test.ts); `builtinRevisions` is the value for every built-in one, and a
 * revision given by name is refused with the way out.
 */
import { describe, expect, it } from "vitest";
import { revision as r2025_11_25 } from "../../runtime/generated/protocol/2025-11-25/index.ts";
import { revision as r2026_07_28 } from "../../runtime/generated/protocol/2026-07-28/index.ts";
import { builtinRevisions, McpClient, McpServer, type ClientOptions, type ServerOptions } from "../../runtime/index.ts";

const info = { name: "t", version: "1.0.0" };
/** What a caller without types (JavaScript, `as any`) may pass: no list, or names instead of descriptors. */
const untyped = <T>(options: object): T => options as T;

describe("server and client given revisions as values", () => {
  it("serve and accept exactly the descriptors given, newest first", () => {
    expect(new McpServer({ info, revisions: [r2025_11_25, r2026_07_28] }).versions).toEqual([
      "2026-07-28",
      "2025-11-25",
    ]);
    expect(() => new McpClient({ info, revisions: [r2026_07_28] })).not.toThrow();
  });

  it("refuse a missing list and built-in names, naming the way out", () => {
    expect(() => new McpServer(untyped<ServerOptions>({ info }))).toThrow(/no MCP revisions configured/);
    expect(() => new McpClient(untyped<ClientOptions>({ info }))).toThrow(/no MCP revisions configured/);
    expect(() => new McpServer(untyped<ServerOptions>({ info, revisions: [r2026_07_28, "2025-11-25"] }))).toThrow(
      /"2025-11-25" given by name: pass its descriptor/,
    );
    expect(() => new McpClient(untyped<ClientOptions>({ info, revisions: ["2025-11-25"] }))).toThrow(/given by name/);
    expect(() => new McpServer({ info, revisions: [] })).toThrow(/no MCP revisions configured/);
    expect(() => new McpClient(untyped<ClientOptions>({ info, revisions: ["1999-01-01"] }))).toThrow(
      /"1999-01-01" given by name/,
    );
  });

  it("serve every built-in revision given builtinRevisions, and a built-in's copy ranks as that built-in", () => {
    expect(new McpServer({ info, revisions: builtinRevisions }).versions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    const picked = builtinRevisions.filter((r) => r.version === "2025-11-25");
    expect(new McpServer({ info, revisions: [...picked, r2026_07_28] }).versions).toEqual(["2026-07-28", "2025-11-25"]);
    expect(
      () => new McpClient({ info, revisions: builtinRevisions.filter((r) => r.version === "2025-06-18") }),
    ).not.toThrow();
  });
});
