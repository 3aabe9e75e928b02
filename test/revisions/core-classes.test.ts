/**
 * `McpServerCore` / `McpClientCore` take revision descriptors only (so that a bundle of them holds only those
 * revisions, see test/edge/revision-bundle.test.ts); `McpServer` / `McpClient` keep the built-in default and names.
 */
import { describe, expect, it } from "vitest";
import { revision as r2025_11_25 } from "../../runtime/generated/protocol/2025-11-25/index.ts";
import { revision as r2026_07_28 } from "../../runtime/generated/protocol/2026-07-28/index.ts";
import { McpClient, McpClientCore, McpServer, McpServerCore } from "../../runtime/index.ts";

const info = { name: "t", version: "1.0.0" };

describe("descriptor-only server and client", () => {
  it("serve and accept exactly the descriptors given, newest first", () => {
    expect(new McpServerCore({ info, revisions: [r2025_11_25, r2026_07_28] }).revisions).toEqual([
      "2026-07-28",
      "2025-11-25",
    ]);
    expect(() => new McpClientCore({ info, revisions: [r2026_07_28] })).not.toThrow();
  });

  it("refuse a missing list and built-in names, naming the way out", () => {
    expect(() => new McpServerCore({ info })).toThrow(/no MCP revisions configured/);
    expect(() => new McpClientCore({ info })).toThrow(/no MCP revisions configured/);
    expect(() => new McpServerCore({ info, revisions: [r2026_07_28, "2025-11-25"] })).toThrow(
      /"2025-11-25" given by name: pass its descriptor/,
    );
    expect(() => new McpClientCore({ info, revisions: ["2025-11-25"] })).toThrow(/given by name/);
    expect(() => new McpServerCore({ info, revisions: [] })).toThrow(/no MCP revisions configured/);
  });

  it("leave McpServer and McpClient with every built-in revision by default and built-in names", () => {
    expect(new McpServer({ info }).revisions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    expect(new McpServer({ info, revisions: ["2025-11-25", r2026_07_28] }).revisions).toEqual([
      "2026-07-28",
      "2025-11-25",
    ]);
    expect(() => new McpClient({ info, revisions: ["2025-06-18"] })).not.toThrow();
    expect(() => new McpClient({ info, revisions: ["1999-01-01"] })).toThrow(/unsupported MCP revision "1999-01-01"/);
  });
});
