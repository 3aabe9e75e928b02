/**
 * Methods as a generator user sees them (generator/lower/methods.ts): which result a request is paired with and why,
 * message types written as intersections, capability gates read from the capabilities declarations, and every
 * refusal or warning with the line of the declaration at fault. Oracle: the rules in methods.ts's header and the
 * schemas' own text (lines are found by searching the text, not counted by hand).
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import type { IrMethod, IrModel, IrTypeDecl } from "../../../generator/ir/model.ts";
import { lowerMethods } from "../../../generator/lower/methods.ts";
import { lowerSchema, lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";

const lower = (text: string) => lowerSchemaWithWarnings({ text, displayPath: "in/schema.ts", revision: "test" });
const methodOf = (text: string, name: string): IrMethod | undefined =>
  lower(text).model.methods.find((m) => m.method === name);
/** `in/schema.ts:<line of the first line containing needle>` */
const at = (text: string, needle: string): string => {
  const line = text.split("\n").findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} is not in the schema`);
  return `in/schema.ts:${line + 1}`;
};
const errorOf = (text: string): string => {
  try {
    lower(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected lowering to fail");
};

const BASE = `
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface JSONRPCRequest { jsonrpc: "2.0"; id: string | number; method: string; params?: { [key: string]: unknown } }
`;

describe("result pairing", () => {
  it("an unpaired request gets the base Result and a warning at its line naming what was looked for", () => {
    const text = `${BASE}
export interface FrobRequest extends Request { method: "frob" }
export type ClientRequest = FrobRequest;`;
    const { model, warnings } = lower(text);
    expect(model.methods[0]).toMatchObject({ result: { kind: "ref", name: "Result" }, resultSource: "base-result" });
    expect(warnings).toContain(
      `${at(text, "FrobRequest extends")}: request FrobRequest is paired with the base Result type: no ` +
        "FrobResultResponse, no FrobResult, and no entry in RESULT_QUIRKS (generator/lower/quirks.ts)",
    );
  });

  it("a request type not named …Request is looked up under its whole name", () => {
    const text = `${BASE}
export interface Frob extends Request { method: "frob" }
export type ClientRequest = Frob;`;
    expect(lower(text).warnings).toContain(
      `${at(text, "Frob extends")}: request Frob is paired with the base Result type: no FrobResultResponse, ` +
        "no FrobResult, and no entry in RESULT_QUIRKS (generator/lower/quirks.ts)",
    );
    // …and never by naming: `FrobResult` would need a `FrobRequest`.
    const named = `${text}\nexport interface FrobResult extends Result { x: string }`;
    expect(methodOf(named, "frob")?.resultSource).toBe("base-result");
  });

  it("the quirks table pairs PingRequest with EmptyResult, which must then be declared", () => {
    const text = `${BASE}
export interface PingRequest extends Request { method: "ping" }
export type ClientRequest = PingRequest;`;
    expect(errorOf(text)).toBe(
      `${at(text, "PingRequest extends")}: RESULT_QUIRKS pairs PingRequest with EmptyResult, which is not declared`,
    );
  });

  it("a response envelope wins over naming, and needs a required result property in an object type", () => {
    const request = `${BASE}
export interface GetRequest extends Request { method: "get" }
export interface GetResult extends Result { named: true }
export type ClientRequest = GetRequest;`;
    const envelope = `${request}\nexport interface GetResultResponse { jsonrpc: "2.0"; result: Result }`;
    expect(methodOf(envelope, "get")).toMatchObject({
      result: { kind: "ref", name: "Result" },
      resultSource: "response-envelope",
    });
    const optional = `${request}\nexport interface GetResultResponse { result?: GetResult }`;
    expect(errorOf(optional)).toBe(
      `${at(optional, "GetResultResponse")}: GetResultResponse needs a required \`result\` property`,
    );
    const missing = `${request}\nexport interface GetResultResponse { jsonrpc: "2.0" }`;
    expect(errorOf(missing)).toBe(
      `${at(missing, "GetResultResponse")}: GetResultResponse needs a required \`result\` property`,
    );
    const notObject = `${request}\nexport type GetResultResponse = GetResult;`;
    expect(errorOf(notObject)).toBe(
      `${at(notObject, "GetResultResponse")}: message type GetResultResponse is not an object type`,
    );
  });
});

describe("message types", () => {
  it("an intersection with the JSON-RPC request: method narrowed by intersection, params merged", () => {
    const text = `${BASE}
export type RunRequest = JSONRPCRequest & { method: string & "run"; params: { task: string } };
export interface RunResult extends Result {}
export type ClientRequest = RunRequest;`;
    const run = methodOf(text, "run");
    expect(run).toMatchObject({ method: "run", typeName: "RunRequest", kind: "request", paramsOptional: false });
    // The params of both members hold, so the parameters are their intersection.
    expect(run?.params).toEqual({
      kind: "intersection",
      items: [
        { kind: "object", props: [], index: { kind: "primitive", name: "unknown" } },
        { kind: "object", props: [{ name: "task", optional: false, type: { kind: "primitive", name: "string" } }] },
      ],
    });
  });

  it("params optional on every member stay optional; a notification without params has optional params", () => {
    const text = `${BASE}
export type RunRequest = JSONRPCRequest & { method: "run"; params?: { task?: string } };
export interface RunResult extends Result {}
export interface DoneNotification extends Notification { method: "notifications/done" }
export interface BareNotification { method: "notifications/bare" }
export type ClientRequest = RunRequest;
export type ServerNotification = DoneNotification | BareNotification;`;
    expect(methodOf(text, "run")?.paramsOptional).toBe(true);
    expect(methodOf(text, "notifications/done")?.paramsOptional).toBe(true);
    const bare = methodOf(text, "notifications/bare");
    expect(bare?.paramsOptional).toBe(true);
    expect(bare).not.toHaveProperty("params");
    expect(bare).not.toHaveProperty("result");
  });

  it("refuses a method that is optional, not a string literal, or two literals at once, at the type's line", () => {
    for (const method of ['method?: "x"', "method: 1", 'method: "x" | "y"', 'method: "x" & "y"', "method: string"]) {
      const text = `${BASE}\nexport interface XNotification { ${method} }\nexport type ServerNotification = XNotification;`;
      expect(errorOf(text), method).toBe(
        `${at(text, "XNotification {")}: message type XNotification needs a required string-literal \`method\``,
      );
    }
  });

  it("refuses a message type without any method property", () => {
    const text = `${BASE}\nexport interface XNotification { x: string }\nexport type ServerNotification = XNotification;`;
    expect(errorOf(text)).toBe(
      `${at(text, "XNotification {")}: message type XNotification needs a required string-literal \`method\``,
    );
  });

  it("carries the message type's documentation to the method", () => {
    const text = `${BASE}\n/** Says hello. */\nexport interface HiNotification { method: "hi" }\nexport type ServerNotification = HiNotification;`;
    expect(methodOf(text, "hi")?.doc).toEqual({ text: "Says hello." });
  });

  it("refuses an intersection with a union, and intersections referencing each other, instead of looping", () => {
    const union = `${BASE}
export interface A { method: "x" }
export interface B { method: "x"; extra: string }
export type XNotification = { jsonrpc: "2.0" } & (A | B);
export type ServerNotification = XNotification;`;
    expect(errorOf(union)).toBe(`${at(union, "XNotification =")}: message type XNotification is not an object type`);
    const cycle = `${BASE}
export type XNotification = YNotification & { method: "x" };
export type YNotification = XNotification & { extra: string };
export type ServerNotification = XNotification;`;
    expect(errorOf(cycle)).toBe(`${at(cycle, "XNotification =")}: message type XNotification is not an object type`);
  });

  it("refuses a message type that is no object, at its line", () => {
    const text = `${BASE}\nexport type XNotification = string;\nexport type ServerNotification = XNotification;`;
    expect(errorOf(text)).toBe(`${at(text, "XNotification =")}: message type XNotification is not an object type`);
    const withPrimitive = `${BASE}\nexport type XNotification = Notification & string;\nexport type ServerNotification = XNotification;`;
    expect(errorOf(withPrimitive)).toBe(
      `${at(withPrimitive, "XNotification =")}: message type XNotification is not an object type`,
    );
  });

  it("refuses a direction union naming a type the IR does not declare", () => {
    const union: IrTypeDecl = {
      name: "ClientRequest",
      form: "alias",
      type: { kind: "ref", name: "Gone" },
      extends: [],
      location: { file: "in/schema.ts", line: 7 },
    };
    expect(() => lowerMethods([union])).toThrow("in/schema.ts:7: ClientRequest names an undeclared type Gone");
  });
});

describe("capability gates", () => {
  const gates = (capabilities: string, messages: string) => {
    const text = `${BASE}${capabilities}\n${messages}`;
    return Object.fromEntries(lower(text).model.methods.map((m) => [m.method, m.capability]));
  };

  it("follows named capability objects, camel-cases the next segment, and gates requests by the head alone", () => {
    const result = gates(
      `export interface ServerCapabilities { tools?: ToolsCapability; big_thing?: object }
export interface ToolsCapability { listChanged?: boolean; callMany?: boolean }`,
      `export interface ToolsListChangedNotification extends Notification { method: "notifications/tools/list_changed" }
export interface CallManyToolsRequest extends Request { method: "tools/call_many" }
export interface CallManyToolsResult extends Result {}
export interface ListToolsRequest extends Request { method: "tools/list" }
export interface ListToolsResult extends Result {}
export interface ToolsOtherNotification extends Notification { method: "notifications/tools/other" }
export interface BigNotification extends Notification { method: "notifications/big_thing" }
export interface UngatedRequest extends Request { method: "nothing/here" }
export interface UngatedResult extends Result {}
export type ClientRequest = CallManyToolsRequest | ListToolsRequest | UngatedRequest;
export type ServerNotification = ToolsListChangedNotification | ToolsOtherNotification | BigNotification;`,
    );
    expect(result).toEqual({
      "notifications/big_thing": undefined,
      "notifications/tools/list_changed": { side: "server", path: ["tools", "listChanged"] },
      // A notification is gated only by a sub-capability it names.
      "notifications/tools/other": undefined,
      "nothing/here": undefined,
      "tools/call_many": { side: "server", path: ["tools", "callMany"] },
      "tools/list": { side: "server", path: ["tools"] },
    });
  });

  it("a capabilities alias is followed; messages sent both ways are never gated", () => {
    const result = gates(
      "export type ClientCapabilities = Caps;\nexport interface Caps { roots?: { listChanged?: boolean } }",
      `export interface RootsListRequest extends Request { method: "roots/list" }
export interface RootsListResult extends Result {}
export interface RootsPingRequest extends Request { method: "roots/ping" }
export interface RootsPingResult extends Result {}
export type ServerRequest = RootsListRequest | RootsPingRequest;
export type ClientRequest = RootsPingRequest;`,
    );
    expect(result).toEqual({ "roots/list": { side: "client", path: ["roots"] }, "roots/ping": undefined });
  });

  it("a quirk entry applies only where its path exists in the capabilities declaration", () => {
    const messages = `export interface CompleteRequest extends Request { method: "completion/complete" }
export interface CompleteResult extends Result {}
export interface UnsubscribeRequest extends Request { method: "resources/unsubscribe" }
export type EmptyResult = Result;
export type ClientRequest = CompleteRequest | UnsubscribeRequest;`;
    expect(
      gates(
        "export interface ServerCapabilities { completions?: object; resources?: { subscribe?: boolean } }",
        messages,
      ),
    ).toEqual({
      "completion/complete": { side: "server", path: ["completions"] },
      "resources/unsubscribe": { side: "server", path: ["resources", "subscribe"] },
    });
    // Without those paths: ungated, even though the naming rule alone would gate on `resources`.
    const ungated = { "completion/complete": undefined, "resources/unsubscribe": undefined };
    expect(gates("export interface ServerCapabilities { completion?: object; resources?: object }", messages)).toEqual(
      ungated,
    );
    // A `subscribe` elsewhere, or no `resources` at all, or no capabilities declaration: still ungated.
    const elsewhere = "export interface ServerCapabilities { other?: { subscribe?: boolean }; resources?: object }";
    expect(gates(elsewhere, messages)).toEqual(ungated);
    expect(gates("export interface ServerCapabilities { tools?: object }", messages)).toEqual(ungated);
    expect(gates("", messages)).toEqual(ungated);
  });

  it("capabilities aliases that reference each other end the search (ungated) instead of looping", () => {
    const result = gates(
      "export type ServerCapabilities = Caps;\nexport type Caps = ServerCapabilities;",
      `export interface ListToolsRequest extends Request { method: "tools/list" }
export interface ListToolsResult extends Result {}
export type ClientRequest = ListToolsRequest;`,
    );
    expect(result).toEqual({ "tools/list": undefined });
  });
});

describe("a declaration in two direction unions", () => {
  const lowerModel = (text: string): IrModel =>
    lowerSchema({ text, displayPath: "inline/schema.ts", revision: "test" });
  const UNIONS_BASE = `
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export type EmptyResult = Result;
export interface PingRequest extends Request { method: "ping" }
export interface PingNotification extends Notification { method: "ping" }
`;

  it("rejects one declaration listed as a request and as a notification", () => {
    const text = `${UNIONS_BASE}
export interface HeyRequest extends Request { method: "hey" }
export interface HeyResult extends Result {}
export type ClientRequest = HeyRequest;
export type ServerNotification = HeyRequest;`;
    expect(() => lowerModel(text)).toThrow(
      /method "hey" is declared by both HeyRequest and HeyRequest \(or with conflicting roles\)/,
    );
  });

  it("rejects one declaration delivered as a message and embedded (InputRequest)", () => {
    const text = `${UNIONS_BASE}
export interface AskRequest extends Request { method: "ask" }
export interface AskResult extends Result {}
export type ServerRequest = AskRequest;
export type InputRequest = AskRequest;`;
    expect(() => lowerModel(text)).toThrow(
      /method "ask" is declared by both AskRequest and AskRequest \(or with conflicting roles\)/,
    );
  });

  it("accepts one declaration in both senders' unions of the same role (direction both)", () => {
    const text = `${UNIONS_BASE}
export type ClientRequest = PingRequest;
export type ServerRequest = PingRequest;`;
    const [ping] = lowerModel(text).methods;
    expect(ping).toMatchObject({
      method: "ping",
      kind: "request",
      direction: "both",
      delivery: "message",
      typeName: "PingRequest",
    });
  });

  it("follows nested union aliases and reports a member that is not a named type", () => {
    const nested = `${UNIONS_BASE}
export interface PongRequest extends Request { method: "pong" }
export type Pings = PingRequest | PongRequest;
export type ClientRequest = Pings;`;
    const text = nested.replace(
      "export type EmptyResult = Result;",
      "export type EmptyResult = Result;\nexport interface PongResult extends Result {}",
    );
    expect(lowerModel(text).methods.map((m) => [m.method, m.direction])).toEqual([
      ["ping", "clientToServer"],
      ["pong", "clientToServer"],
    ]);
    const inline = `${UNIONS_BASE}\nexport type ClientRequest = PingRequest | { method: "x" };`;
    expect(() => lowerModel(inline)).toThrow(/ClientRequest must be a union of named message types/);
  });
});
