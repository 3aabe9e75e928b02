/**
 * Protocol facts decided in lowering (generator/lower/protocol-facts.ts) and the legal constructs of issue 12, on small
 * inline schemas whose expected facts are evident from their text.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { IrModel } from "../../../generator/ir/model.ts";
import { emitProtocolFiles } from "../../../generator/emit/protocol.ts";
import { lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";

const lower = (text: string) => lowerSchemaWithWarnings({ text, displayPath: "inline/schema.ts", revision: "rev-x" });

const BASE = `
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface JSONRPCRequest extends Request { jsonrpc: "2.0"; id: string | number }
export interface InitializeRequest extends Request { method: "initialize" }
export interface InitializeResult extends Result { v: string }
`;

describe("revision facts", () => {
  it("a handshake revision with LATEST_PROTOCOL_VERSION and a batch member in JSONRPCMessage", () => {
    const { model, warnings } = lower(`${BASE}
export const LATEST_PROTOCOL_VERSION = "wire-1";
export type JSONRPCBatch = JSONRPCRequest[];
export type JSONRPCMessage = JSONRPCRequest | JSONRPCBatch;
export type ClientRequest = InitializeRequest;`);
    expect(warnings).toEqual([]);
    expect(model.protocol).toEqual({
      era: "handshake",
      version: "wire-1",
      versionSource: "LATEST_PROTOCOL_VERSION",
      batches: true,
    });
  });

  it("no LATEST_PROTOCOL_VERSION: the revision name, with a warning; no array member: no batches", () => {
    const { model, warnings } = lower(`${BASE}
export type JSONRPCMessage = JSONRPCRequest;
export type ClientRequest = InitializeRequest;`);
    expect(model.protocol).toEqual({
      era: "handshake",
      version: "rev-x",
      versionSource: "revision-name",
      batches: false,
    });
    expect(warnings).toEqual([
      'inline/schema.ts: no string constant LATEST_PROTOCOL_VERSION: the wire version falls back to the revision name "rev-x"',
    ]);
  });

  it("the stateless era comes from server/discover; neither method: no era, a warning and no revision.ts", () => {
    const stateless = lower(`${BASE}
export const LATEST_PROTOCOL_VERSION = "v";
export interface DiscoverRequest extends Request { method: "server/discover" }
export interface DiscoverResult extends Result {}
export type ClientRequest = DiscoverRequest;`);
    expect(stateless.model.protocol.era).toBe("stateless");
    expect(emitProtocolFiles(stateless.model, { runtime: () => "rt" }).map((f) => f.path)).toContain("revision.ts");

    const neither = lower(`${BASE}
export const LATEST_PROTOCOL_VERSION = "v";
export interface EchoRequest extends Request { method: "echo" }
export interface EchoResult extends Result {}
export type ClientRequest = EchoRequest;`);
    expect(neither.model.protocol.era).toBeUndefined();
    expect(neither.warnings).toEqual([expect.stringMatching(/neither initialize nor server\/discover is a method/)]);
    const files = emitProtocolFiles(neither.model, { runtime: () => "rt" });
    expect(files.map((f) => f.path)).not.toContain("revision.ts");
    expect(files.find((f) => f.path === "index.ts")!.content).not.toMatch(/revision/);
  });
});

describe("result facts", () => {
  // Lowered in each test (not once per describe) so Stryker's per-test coverage sees which tests run the lowering.
  let model: IrModel;
  beforeEach(() => {
    model = lower(`${BASE}
export const LATEST_PROTOCOL_VERSION = "v";
export interface InputRequiredResult extends Result { requestState?: string }
export interface CachedResult extends Result { ttlMs: number; cacheScope: "public" | "private"; resultType: string }
export interface RunRequest extends Request { method: "run" }
export interface RunResultResponse { result: RunA | RunB | InputRequiredResult }
export interface RunA extends Result { a: string; resultType: string }
export interface RunB extends Result { b: string }
export interface ListRequest extends Request { method: "list" }
export type ListResult = CachedResult;
export type ClientRequest = InitializeRequest | RunRequest | ListRequest;`).model;
  });
  const facts = (method: string) => model.methods.find((m) => m.method === method)?.resultFacts;

  it("a union with InputRequiredResult: input may be required, the complete result is the rest", () => {
    expect(model.protocol.inputRequiredResult).toBe("InputRequiredResult");
    expect(facts("run")).toEqual({
      resultType: true,
      cacheable: false,
      inputRequired: true,
      complete: {
        kind: "union",
        items: [
          { kind: "ref", name: "RunA" },
          { kind: "ref", name: "RunB" },
        ],
      },
    });
  });

  it("caching hints through an alias; a plain result has none of the facts", () => {
    expect(facts("list")).toEqual({ resultType: true, cacheable: true, inputRequired: false });
    expect(facts("initialize")).toEqual({ resultType: false, cacheable: false, inputRequired: false });
  });
});

describe("legal constructs", () => {
  it("never, a stray semicolon and a merged interface (documentation from the part that has it)", () => {
    const { model } = lower(`export interface A { a: string };
;
/** The second part documents A. */
export interface A { gone?: never }
export interface B extends A { b: number }`);
    const a = model.types.find((t) => t.name === "A")!;
    expect(a.doc?.text).toBe("The second part documents A.");
    expect(a.type).toEqual({
      kind: "object",
      props: [
        { name: "a", optional: false, type: { kind: "primitive", name: "string" } },
        { name: "gone", optional: true, type: { kind: "union", items: [] } },
      ],
    });
    const b = model.types.find((t) => t.name === "B")!;
    expect(b.type.kind === "object" && b.type.props.map((p) => p.name)).toEqual(["a", "gone", "b"]);
  });

  it("merged interfaces may not both have an index signature", () => {
    expect(() =>
      lower("export interface A { [k: string]: string }\nexport interface A { [k: string]: string }"),
    ).toThrow(/second index signature in merged A/);
  });
});
