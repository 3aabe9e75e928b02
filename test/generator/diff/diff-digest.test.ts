/**
 * The structure digests the recorded surface keeps per method (generator/diff/digest.ts): they change exactly when a
 * reachable structure changes (not with documentation), recursive groups get the same digests whatever is asked
 * first, and a method's recorded line reads back to the same facts.
 */
import { describe, expect, it } from "vitest";
import type { IrType } from "../../../generator/ir/model.ts";
import { typeDigests } from "../../../generator/diff/digest.ts";
import { decodeMethod, encodeMethod } from "../../../generator/diff/surface.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";

const ref = (name: string): IrType => ({ kind: "ref", name });

function model(text: string) {
  return lowerSchema({ text, displayPath: "s.ts", revision: "r" });
}

const BASE = `
/** A leaf. */
export interface Leaf { value: string }
export interface Middle { leaf: Leaf; count?: number }
export interface Top { middle: Middle }
export interface Unrelated { x: boolean }
export interface TreeNode { children: Forest; label: string }
export interface Forest { nodes: TreeNode[] }
`;

describe("type digests", () => {
  const digest = typeDigests(model(BASE).types);

  it("ignore documentation, and declarations the type does not reach", () => {
    const other = typeDigests(
      model(BASE.replace("/** A leaf. */", "/** Another text. */").replace("x: boolean", "x: string")).types,
    );
    expect(other(ref("Top"))).toBe(digest(ref("Top")));
  });

  it("change when a structure two references down changes", () => {
    const other = typeDigests(model(BASE.replace("value: string", "value: number")).types);
    expect(other(ref("Top"))).not.toBe(digest(ref("Top")));
    expect(other(ref("Unrelated"))).toBe(digest(ref("Unrelated")));
  });

  it("of a recursive group do not depend on which member is asked first", () => {
    const forestFirst = typeDigests(model(BASE).types);
    const forest = forestFirst(ref("Forest"));
    const node = forestFirst(ref("TreeNode"));
    const nodeFirst = typeDigests(model(BASE).types);
    expect(nodeFirst(ref("TreeNode"))).toBe(node);
    expect(nodeFirst(ref("Forest"))).toBe(forest);
    expect(node).not.toBe(forest);
    const relabelled = typeDigests(model(BASE.replace("label: string", "label: number")).types);
    expect(relabelled(ref("Forest"))).not.toBe(forest);
  });
});

describe("a method's recorded line", () => {
  const schema = `
export const LATEST_PROTOCOL_VERSION = "v1";
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface ServerCapabilities { things?: { subscribe?: boolean } }
export interface InitializeRequest extends Request { method: "initialize" }
export interface InitializeResult extends Result { version: string }
export interface GetThingRequest extends Request { method: "things/get"; params: { id: string } }
export interface GetThingResult extends Result { name: string }
export type ClientRequest = InitializeRequest | GetThingRequest;
`;

  it("reads back to its facts; served depends on the server's switches", () => {
    const m = model(schema);
    const getThing = m.methods.find((x) => x.method === "things/get")!;
    const line = encodeMethod(getThing, typeDigests(m.types));
    expect(line).not.toContain("  ");
    const declared = decodeMethod("things/get", line, new Set(["things"]));
    expect(declared.facts).toEqual({
      method: "things/get",
      kind: "request",
      direction: "clientToServer",
      delivery: "message",
      capability: "server:things",
      params: "inline",
      result: "GetThingResult",
      facts: [],
      served: true,
    });
    expect(decodeMethod("things/get", line, new Set()).facts.served).toBe(false);
  });
});
