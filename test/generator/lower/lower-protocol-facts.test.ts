/**
 * Revision and result facts (generator/lower/protocol-facts.ts) in the cases test/generator/lower/lower-facts.test.ts leaves
 * open, and what the entry point (generator/lower/schema.ts) records about its input. Oracle: the rules in the
 * modules' headers, applied by hand to small inline schemas; the source hash is Node's own SHA-256 of the text.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { IrResultFacts } from "../../../generator/ir/model.ts";
import { lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";

const lower = (text: string) => lowerSchemaWithWarnings({ text, displayPath: "in/schema.ts", revision: "rev-y" });

const BASE = `
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface JSONRPCRequest extends Request { jsonrpc: "2.0"; id: string | number }
export interface InitializeRequest extends Request { method: "initialize" }
export interface InitializeResult extends Result { v: string }
export const LATEST_PROTOCOL_VERSION = "wire-2";
`;

describe("revision facts", () => {
  it("a schema with both initialize and server/discover negotiates with the handshake", () => {
    const { model, warnings } = lower(`${BASE}
export interface DiscoverRequest extends Request { method: "server/discover" }
export interface DiscoverResult extends Result {}
export type ClientRequest = DiscoverRequest | InitializeRequest;`);
    expect(model.protocol.era).toBe("handshake");
    expect(warnings).toEqual([]);
  });

  it("a LATEST_PROTOCOL_VERSION that is no string is not a wire version", () => {
    const { model, warnings } = lower(`${BASE.replace('"wire-2"', "20")}
export type ClientRequest = InitializeRequest;`);
    expect(model.protocol).toMatchObject({ version: "rev-y", versionSource: "revision-name" });
    expect(warnings).toEqual([
      'in/schema.ts: no string constant LATEST_PROTOCOL_VERSION: the wire version falls back to the revision name "rev-y"',
    ]);
  });

  it("batches: a tuple member, or an array alias reached through nested union aliases; none without the union", () => {
    const facts = (messages: string) => lower(`${BASE}${messages}\nexport type ClientRequest = InitializeRequest;`);
    expect(
      facts("export type JSONRPCMessage = JSONRPCRequest | [JSONRPCRequest, ...JSONRPCRequest[]];").model.protocol
        .batches,
    ).toBe(true);
    const nested = `export type Batch = JSONRPCRequest[];
export type Messages = JSONRPCRequest | Batch;
export type JSONRPCMessage = Messages;`;
    expect(facts(nested).model.protocol.batches).toBe(true);
    expect(
      facts("export type Batch = [JSONRPCRequest];\nexport type JSONRPCMessage = Batch;").model.protocol.batches,
    ).toBe(true);
    expect(facts("export type Other = JSONRPCRequest[];").model.protocol.batches).toBe(false);
  });

  it("reads the version from LATEST_PROTOCOL_VERSION among other constants; warns in full without an era", () => {
    const { model, warnings } = lower(`export const JSONRPC_VERSION = "2.0";${BASE}
export interface EchoRequest extends Request { method: "echo" }
export interface EchoResult extends Result {}
export type ClientRequest = EchoRequest;`);
    expect(model.protocol.version).toBe("wire-2");
    expect(warnings).toEqual([
      "in/schema.ts: neither initialize nor server/discover is a method: the bindings get no revision descriptor and " +
        "cannot be served",
    ]);
  });

  it("batches through an alias of an alias, and message unions referencing each other end the search", () => {
    const facts = (messages: string) => lower(`${BASE}${messages}\nexport type ClientRequest = InitializeRequest;`);
    const chain = `export type JSONRPCMessage = M1;
export type M1 = M2;
export type M2 = JSONRPCRequest | JSONRPCRequest[];`;
    expect(facts(chain).model.protocol.batches).toBe(true);
    const cycle = `export type JSONRPCMessage = CycA;
export type CycA = CycB | JSONRPCRequest;
export type CycB = CycA | JSONRPCRequest;`;
    expect(facts(cycle).model.protocol.batches).toBe(false);
  });

  it("records the revision, the display path and the SHA-256 of the text it read", () => {
    const text = `${BASE}\nexport type ClientRequest = InitializeRequest;`;
    const { model } = lower(text);
    expect(model.revision).toBe("rev-y");
    expect(model.source).toEqual({ path: "in/schema.ts", sha256: createHash("sha256").update(text).digest("hex") });
  });
});

describe("what the entry point records and checks", () => {
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");

  it("an importing schema's hash covers every file read once, as sorted `path\\n<sha256>\\n` lines", () => {
    const schema =
      `import type { A } from "../base/a.js";\nimport type { B } from "../base/a.js";\n` +
      `import type { Z } from "../zz/z.js";\nexport interface C { a: A; b: B; z: Z }\n`;
    const modules: Record<string, { text: string; displayPath: string }> = {
      "../base/a.js": {
        text: "export interface A { a: string }\nexport interface B { b: string }\n",
        displayPath: "base/a.ts",
      },
      "../zz/z.js": { text: "export interface Z { z: string }\n", displayPath: "zz/z.ts" },
    };
    const { model } = lowerSchemaWithWarnings({
      text: schema,
      displayPath: "ext/schema.ts",
      revision: "ext",
      readImport: (specifier) => modules[specifier]!,
    });
    // Read in the order ext/schema.ts, base/a.ts (twice), zz/z.ts; recorded once each, sorted by path.
    const line = (path: string, text: string) => `${path}\n${sha(text)}\n`;
    expect(model.source).toEqual({
      path: "ext/schema.ts",
      sha256: sha(
        line("base/a.ts", modules["../base/a.js"]!.text) +
          line("ext/schema.ts", schema) +
          line("zz/z.ts", modules["../zz/z.js"]!.text),
      ),
    });
  });

  it("the lowered model is validated: an empty LATEST_PROTOCOL_VERSION is refused", () => {
    expect(() => lower(`${BASE.replace('"wire-2"', '""')}\nexport type ClientRequest = InitializeRequest;`)).toThrow(
      "the protocol version is empty",
    );
  });
});

describe("result facts", () => {
  const factsOf = (declarations: string): Record<string, IrResultFacts | undefined> => {
    const { model } = lower(`${BASE}
export interface InputRequiredResult extends Result { requestState?: string }
export interface Done { [key: string]: unknown }
${declarations}`);
    return Object.fromEntries(model.methods.map((m) => [m.method, m.resultFacts]));
  };

  it("a result that can only ask for input has no complete part; one complete member is named alone", () => {
    const facts = factsOf(`export interface AskRequest extends Request { method: "ask" }
export type AskResult = InputRequiredResult;
export interface OneRequest extends Request { method: "one" }
export type OneResult = Done | InputRequiredResult;
export type ClientRequest = InitializeRequest | AskRequest | OneRequest;`);
    expect(facts["ask"]).toEqual({ resultType: false, cacheable: false, inputRequired: false });
    expect(facts["one"]).toEqual({
      resultType: false,
      cacheable: false,
      inputRequired: true,
      complete: { kind: "ref", name: "Done" },
    });
  });

  it("caching needs both ttlMs and cacheScope; resultType is found through intersections and union members", () => {
    const facts = factsOf(`export interface TtlRequest extends Request { method: "ttl" }
export interface TtlResult extends Result { ttlMs: number }
export interface ScopeRequest extends Request { method: "scope" }
export interface ScopeResult extends Result { cacheScope: string }
export interface TypedRequest extends Request { method: "typed" }
export type TypedResult = Result & { resultType: "complete" };
export interface EitherRequest extends Request { method: "either" }
export type EitherResult = Done | (Result & { resultType: string; ttlMs: number; cacheScope: string });
export type ClientRequest = InitializeRequest | TtlRequest | ScopeRequest | TypedRequest | EitherRequest;`);
    expect(facts["ttl"]).toEqual({ resultType: false, cacheable: false, inputRequired: false });
    expect(facts["scope"]).toEqual({ resultType: false, cacheable: false, inputRequired: false });
    expect(facts["typed"]).toEqual({ resultType: true, cacheable: false, inputRequired: false });
    expect(facts["either"]).toEqual({ resultType: true, cacheable: true, inputRequired: false });
  });

  it("resultType inside a union within an intersection; results through alias chains and union cycles", () => {
    const facts = factsOf(`export interface UnionRequest extends Request { method: "union" }
export type UnionResult = Result & ({ resultType: string } | { other: string });
export interface ChainRequest extends Request { method: "chain" }
export type ChainResult = ChainA;
export type ChainA = ChainB;
export type ChainB = Done | InputRequiredResult;
export interface CycleRequest extends Request { method: "cycle" }
export type CycleResult = CycA;
export type CycA = CycB | Done;
export type CycB = CycA | Done;
export type ClientRequest = InitializeRequest | UnionRequest | ChainRequest | CycleRequest;`);
    expect(facts["union"]).toEqual({ resultType: true, cacheable: false, inputRequired: false });
    expect(facts["chain"]).toEqual({
      resultType: false,
      cacheable: false,
      inputRequired: true,
      complete: { kind: "ref", name: "Done" },
    });
    expect(facts["cycle"]).toMatchObject({ resultType: false, cacheable: false, inputRequired: false });
  });

  it("notifications carry no result facts", () => {
    const { model } = lower(`${BASE}
export interface Notification { method: string }
export interface PingedNotification extends Notification { method: "notifications/pinged" }
export type ClientRequest = InitializeRequest;
export type ClientNotification = PingedNotification;`);
    expect(model.methods.find((m) => m.kind === "notification")).not.toHaveProperty("resultFacts");
  });

  it("alias cycles (which tsc rejects) end the search instead of overflowing the stack", () => {
    const { model } = lower(`${BASE}
export type LoopA = LoopB;
export type LoopB = LoopA;
export type JSONRPCMessage = LoopA;
export interface LoopRequest extends Request { method: "loop" }
export type LoopResult = LoopA;
export type ClientRequest = InitializeRequest | LoopRequest;`);
    expect(model.protocol.batches).toBe(false);
    expect(model.methods.find((m) => m.method === "loop")?.resultFacts).toEqual({
      resultType: false,
      cacheable: false,
      inputRequired: false,
    });
  });
});
