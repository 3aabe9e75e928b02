/**
 * Messages of an extension schema found outside direction unions (the `discover` rule of generator/lower/methods.ts):
 * a declaration of the extension itself with a `jsonrpc` property and a required string-literal `method` is a message
 * sent both ways; nothing else is, and the base's own direction unions never count. Oracle: that rule, applied by
 * hand to small in-memory extension schemas.
 */
import { describe, expect, it } from "vitest";
import { lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";

const BASE = `export interface Result { [key: string]: unknown }
export interface JSONRPCRequest { jsonrpc: "2.0"; id: string | number; method: string }
export interface JSONRPCNotification { jsonrpc: "2.0"; method: string }
export interface PingRequest extends JSONRPCRequest { method: "ping" }
export type EmptyResult = Result;
export type ClientRequest = PingRequest;
`;

function lower(extension: string) {
  return lowerSchemaWithWarnings({
    text: `import type { JSONRPCRequest, JSONRPCNotification, Result } from "./base.js";\n${extension}`,
    displayPath: "ext/schema.ts",
    revision: "ext",
    readImport: () => ({ text: BASE, displayPath: "ext/base.ts" }),
  });
}
const methodsOf = (extension: string) => lower(extension).model.methods.map((m) => [m.method, m.kind, m.direction]);

const ADD = `export type AddRequest = JSONRPCRequest & { method: "add" };
export interface AddResult extends Result {}
`;

describe("discovered extension messages", () => {
  it("are requests with an id, notifications without, delivered as messages in both directions", () => {
    const { model } = lower(`${ADD}export type AddedNotification = JSONRPCNotification & { method: "added" };\n`);
    expect(model.methods.map((m) => [m.method, m.kind, m.direction, m.delivery])).toEqual([
      ["add", "request", "both", "message"],
      ["added", "notification", "both", "message"],
    ]);
  });

  it("never come from the base's direction unions, even when the extension imports one", () => {
    const { model } = lowerSchemaWithWarnings({
      text: `import type { ClientRequest } from "./base.js";\nexport interface Uses { r: ClientRequest }\n`,
      displayPath: "ext/schema.ts",
      revision: "ext",
      readImport: () => ({ text: BASE, displayPath: "ext/base.ts" }),
    });
    expect(model.types.map((t) => t.name)).toContain("PingRequest");
    expect(model.methods).toEqual([]);
  });

  it("skip aliases of a message, non-objects, types without jsonrpc, and methods that are no string literal", () => {
    expect(
      methodsOf(`${ADD}export type AddAgain = AddRequest;
export type Kind = "a" | "b";
export interface Template { method: "template" }
export interface Generic { jsonrpc: "2.0"; method: string }
export interface Maybe { jsonrpc: "2.0"; method?: "maybe" }
`),
    ).toEqual([["add", "request", "both"]]);
  });

  it("refuse two messages with the same method, at the second one's line", () => {
    const { message } = (() => {
      try {
        lower(`${ADD}export type AddTwice = JSONRPCNotification & { method: "add" };\n`);
      } catch (error) {
        return error as Error;
      }
      throw new Error("expected lowering to fail");
    })();
    expect(message).toBe('ext/schema.ts:4: method "add" is declared by both AddRequest and AddTwice');
  });
});
