/** The reader (schema.ts → IR) on inline schemas: what it produces, and that everything else fails with file:line. */
import { beforeEach, describe, expect, it } from "vitest";
import { lowerSchema } from "../../../generator/lower/schema.ts";
import type { IrModel, IrObjectType } from "../../../generator/ir/model.ts";

const lower = (text: string): IrModel => lowerSchema({ text, displayPath: "inline/schema.ts", revision: "test" });
const objectOf = (model: IrModel, name: string): IrObjectType => {
  const type = model.types.find((t) => t.name === name)?.type;
  if (type?.kind !== "object") throw new Error(`${name} is not an object`);
  return type;
};

const BASE = `
export const JSONRPC_VERSION = "2.0";
export const PARSE_ERROR = -32700;
export type RequestId = string | number;
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown }
export type EmptyResult = Result;
`;

describe("declarations", () => {
  it("flattens heritage: parents first, child overrides, Omit removes, aliases to objects can be extended", () => {
    const model = lower(`
      export type MetaObject = Record<string, unknown>;
      export interface A { a: string; shared: string }
      export interface B { b?: number; shared: string }
      export interface C extends A, B { shared: "narrowed"; c: boolean }
      export interface D extends Omit<C, "a" | "b"> {}
      export interface M extends MetaObject { "io.example/key": string }
    `);
    expect(objectOf(model, "C").props.map((p) => [p.name, p.type])).toEqual([
      ["a", { kind: "primitive", name: "string" }],
      ["b", { kind: "primitive", name: "number" }],
      ["shared", { kind: "literal", value: "narrowed" }],
      ["c", { kind: "primitive", name: "boolean" }],
    ]);
    expect(objectOf(model, "D").props.map((p) => p.name)).toEqual(["shared", "c"]);
    expect(objectOf(model, "M")).toEqual({
      kind: "object",
      props: [{ name: "io.example/key", optional: false, type: { kind: "primitive", name: "string" } }],
      index: { kind: "primitive", name: "unknown" },
    });
    expect(model.types.find((t) => t.name === "C")?.extends).toEqual(["A", "B"]);
  });

  it("resolves typeof constants, keeps open literal unions as hints and reads constants verbatim", () => {
    const model = lower(`${BASE}
      export interface E { jsonrpc: typeof JSONRPC_VERSION; code: typeof PARSE_ERROR; reason?: "a" | "b" | string }
    `);
    expect(objectOf(model, "E").props.map((p) => p.type)).toEqual([
      { kind: "literal", value: "2.0" },
      { kind: "literal", value: -32700 },
      { kind: "union", items: [{ kind: "primitive", name: "string" }], openLiterals: ["a", "b"] },
    ]);
    expect(model.constants.map((c) => [c.name, c.value])).toEqual([
      ["JSONRPC_VERSION", "2.0"],
      ["PARSE_ERROR", -32700],
    ]);
  });

  it("carries JSDoc text, @deprecated and validation tags; @category and @internal stay doc tags", () => {
    const model = lower(`
      /**
       * A thing.
       *
       * @category \`things/get\`
       * @internal
       */
      export interface Thing {
        /**
         * Old.
         * @deprecated Use \`uri\`.
         */
        url?: string;
        /**
         * @format uri
         */
        uri: string;
        /**
         * @minimum 0
         * @maximum 1
         */
        priority: number;
        /**
         * @nullable
         */
        ttl: number | null;
        /** @maxItems 100 */
        values: string[];
      }
    `);
    const decl = model.types[0]!;
    expect(decl.doc?.text).toBe("A thing.");
    expect(decl.doc?.tags).toEqual([
      { name: "category", text: "`things/get`" },
      { name: "internal", text: "" },
    ]);
    const props = objectOf(model, "Thing").props;
    expect(props[0]!.doc?.deprecated).toBe("Use `uri`.");
    expect(props.map((p) => p.constraints)).toEqual([
      undefined,
      { format: "uri" },
      { minimum: 0, maximum: 1 },
      { nullable: true },
      { maxItems: 100 },
    ]);
  });
});

describe("@TJS-type", () => {
  it("keeps a TypeScript number a number, or refines it to an integer", () => {
    const model = lower(`export interface N {
      /** @TJS-type number */
      a: number;
      /** @TJS-type integer */
      b: number | null;
      c: number;
    }`);
    expect(objectOf(model, "N").props.map((p) => p.type)).toEqual([
      { kind: "primitive", name: "number" },
      {
        kind: "union",
        items: [
          { kind: "primitive", name: "integer" },
          { kind: "primitive", name: "null" },
        ],
      },
      { kind: "primitive", name: "number" },
    ]);
  });

  it("refuses to override a non-number", () => {
    expect(() => lower("export interface N {\n  /** @TJS-type integer */\n  a: string;\n}")).toThrow(
      /inline\/schema\.ts:3: @TJS-type integer does not fit/,
    );
  });
});

describe("unsupported input fails with file:line and the reason", () => {
  const cases: [string, string, RegExp][] = [
    [
      "keyof",
      "export interface A { a: string }\nexport type K = keyof A;",
      /inline\/schema\.ts:2: unsupported type construct: `keyof A`/,
    ],
    [
      "generic utility",
      "export interface A { a: string }\nexport type P = Partial<A>;",
      /inline\/schema\.ts:2: unsupported generic type/,
    ],
    [
      "mapped type",
      "\nexport type M = { [K in 'a' | 'b']: string };",
      /inline\/schema\.ts:2: unsupported type construct/,
    ],
    [
      "enum",
      "\n\nexport enum Color { Red }",
      /inline\/schema\.ts:3: unsupported top-level statement \(EnumDeclaration\)/,
    ],
    [
      "undeclared reference",
      "export interface A {\n  b: Missing;\n}",
      /inline\/schema\.ts:2: unsupported reference to a type that is not declared/,
    ],
    ["method signature", "export interface A {\n  run(): void;\n}", /inline\/schema\.ts:2: unsupported member kind/],
    [
      "readonly property",
      "export interface A {\n  readonly a: string;\n}",
      /inline\/schema\.ts:2: unsupported readonly property/,
    ],
    [
      "typeof a non-constant",
      "export interface A {\n  a: typeof globalThis;\n}",
      /inline\/schema\.ts:2: unsupported `typeof`/,
    ],
    [
      "non-literal constant",
      "\nexport const X = 1 + 1;",
      /inline\/schema\.ts:2: constant X must be initialised with a plain literal/,
    ],
    [
      "type parameters",
      "\nexport interface Box<T> { value: T }",
      /inline\/schema\.ts:2: type parameters are not supported/,
    ],
    [
      "bad @minimum",
      "export interface A {\n  /** @minimum lots */\n  n: number;\n}",
      /inline\/schema\.ts:3: @minimum needs a number/,
    ],
    [
      "heritage through a generic",
      "export interface A { a: string }\nexport interface B extends Partial<A> {}",
      /inline\/schema\.ts:2: unsupported heritage/,
    ],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => expect(() => lower(text)).toThrow(message));
  }

  it("a request nobody can pair with a result, in a schema without a base Result", () => {
    const text = `${BASE.replace(/^export (interface Result|type EmptyResult).*$/gm, "")}
export interface FrobRequest extends Request { method: "things/frob" }
export type ClientRequest = FrobRequest;`;
    expect(() => lower(text)).toThrow(
      /inline\/schema\.ts:10: cannot pair request FrobRequest with a result: no FrobResultResponse, no FrobResult, and no entry in RESULT_QUIRKS/,
    );
  });

  it("a direction-union member without a method literal", () => {
    const text = `${BASE}\nexport interface Odd extends Notification {}\nexport type ServerNotification = Odd;`;
    expect(() => lower(text)).toThrow(
      /inline\/schema\.ts:10: message type Odd needs a required string-literal `method`/,
    );
  });

  it("two message types with the same method", () => {
    const text = `${BASE}
export interface ANotification extends Notification { method: "notifications/x" }
export interface BNotification extends Notification { method: "notifications/x" }
export type ServerNotification = ANotification | BNotification;`;
    expect(() => lower(text)).toThrow(
      /inline\/schema\.ts:11: method "notifications\/x" is declared by both ANotification and BNotification/,
    );
  });
});

describe("methods", () => {
  const text = `${BASE}
export interface ClientCapabilities { roots?: { listChanged?: boolean }; sampling?: object }
export interface ServerCapabilities { things?: { subscribe?: boolean; listChanged?: boolean }; logging?: object }
export interface PingRequest extends Request { method: "ping" }
export interface GetThingRequest extends Request { method: "things/get"; params: { id: string } }
export interface GetThingResult extends Result { thing: string }
export interface GetThingResultResponse { jsonrpc: "2.0"; id: RequestId; result: GetThingResult | EmptyResult }
export interface SubscribeRequest extends Request { method: "things/subscribe" }
export interface ThingListChangedNotification extends Notification { method: "notifications/things/list_changed" }
export interface ThingUpdatedNotification extends Notification { method: "notifications/things/updated" }
export interface RootsListChangedNotification extends Notification { method: "notifications/roots/list_changed" }
export interface SampleRequest { method: "sampling/sample"; params: { prompt: string } }
export interface SampleResult { text: string }
export type ClientRequest = PingRequest | GetThingRequest | SubscribeRequest;
export type ServerRequest = PingRequest;
export type ClientNotification = RootsListChangedNotification;
export type ServerNotification = ThingListChangedNotification | ThingUpdatedNotification;
export type InputRequest = SampleRequest;
`;
  // Lowered in each test (not once per describe) so Stryker's per-test coverage sees which tests run the lowering.
  let model: IrModel;
  beforeEach(() => {
    model = lower(text);
  });
  const method = (name: string) => model.methods.find((m) => m.method === name);

  it("are sorted by method string, with kinds, directions and deliveries from the unions", () => {
    expect(model.methods.map((m) => [m.method, m.kind, m.direction, m.delivery])).toEqual([
      ["notifications/roots/list_changed", "notification", "clientToServer", "message"],
      ["notifications/things/list_changed", "notification", "serverToClient", "message"],
      ["notifications/things/updated", "notification", "serverToClient", "message"],
      ["ping", "request", "both", "message"],
      ["sampling/sample", "request", "serverToClient", "embedded"],
      ["things/get", "request", "clientToServer", "message"],
      ["things/subscribe", "request", "clientToServer", "message"],
    ]);
  });

  it("pair results by response envelope, quirks table and naming, in that order", () => {
    expect([method("things/get")?.result, method("things/get")?.resultSource]).toEqual([
      {
        kind: "union",
        items: [
          { kind: "ref", name: "GetThingResult" },
          { kind: "ref", name: "EmptyResult" },
        ],
      },
      "response-envelope",
    ]);
    expect([method("ping")?.result, method("ping")?.resultSource]).toEqual([
      { kind: "ref", name: "EmptyResult" },
      "pairing-table",
    ]);
    expect([method("things/subscribe")?.result, method("sampling/sample")?.resultSource]).toEqual([
      { kind: "ref", name: "EmptyResult" },
      "naming",
    ]);
  });

  it("derive capability gates from the capabilities declarations", () => {
    expect(method("things/get")?.capability).toEqual({ side: "server", path: ["things"] });
    expect(method("things/subscribe")?.capability).toEqual({ side: "server", path: ["things", "subscribe"] });
    expect(method("sampling/sample")?.capability).toEqual({ side: "client", path: ["sampling"] });
    expect(method("notifications/things/list_changed")?.capability).toEqual({
      side: "server",
      path: ["things", "listChanged"],
    });
    expect(method("notifications/roots/list_changed")?.capability).toEqual({
      side: "client",
      path: ["roots", "listChanged"],
    });
    // Not derivable from names, and no quirk entry for it: ungated rather than guessed.
    expect(method("notifications/things/updated")?.capability).toBeUndefined();
    expect(method("ping")?.capability).toBeUndefined();
  });

  it("take params from the params property, inline or named", () => {
    expect(method("things/get")?.params).toEqual({
      kind: "object",
      props: [{ name: "id", optional: false, type: { kind: "primitive", name: "string" } }],
    });
    expect(method("things/get")?.paramsOptional).toBe(false);
    expect(method("ping")?.paramsOptional).toBe(true);
  });
});
