/**
 * The input hash lowering records (ir.json `source.sha256`, the generated headers) covers every file it read: an
 * extension schema's own text and the base it imports. The oracle is node:crypto over the same texts, computed here.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { lowerSchema } from "../../../generator/lower/schema.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

const BASE = `
export interface Result { [key: string]: unknown }
export interface JSONRPCRequest { jsonrpc: "2.0"; id: string | number; method: string; params?: { [key: string]: unknown } }
`;
const EXTENSION = `import type { JSONRPCRequest, Result } from "./base.js";
export type NoteRequest = JSONRPCRequest & { method: "notes/add"; params: { text: string } };
export type NoteResult = Result & { id: string };
`;

function lowerExtension(base: string) {
  return lowerSchema({
    text: EXTENSION,
    displayPath: "ext/schema.ts",
    revision: "ext",
    readImport: (specifier) => {
      if (specifier !== "./base.js") throw new Error(`unexpected import ${specifier}`);
      return { text: base, displayPath: "ext/base.ts" };
    },
  });
}

describe("the recorded input hash", () => {
  it("is the schema's own sha256 when it imports nothing", () => {
    const model = lowerSchema({ text: BASE, displayPath: "base.ts", revision: "base" });
    expect(model.source.sha256).toBe(sha(BASE));
  });

  it("covers the imported base: each file's path and sha256, sorted by path", () => {
    const model = lowerExtension(BASE);
    expect(model.source.path).toBe("ext/schema.ts");
    expect(model.source.sha256).toBe(sha(`ext/base.ts\n${sha(BASE)}\next/schema.ts\n${sha(EXTENSION)}\n`));
    expect(model.source.sha256).not.toBe(sha(EXTENSION));
  });

  it("changes when only the base changes, and is the same for the same inputs", () => {
    const changedBase = BASE.replace("id: string | number", "id: string");
    expect(lowerExtension(changedBase).source.sha256).not.toBe(lowerExtension(BASE).source.sha256);
    expect(lowerExtension(BASE).source.sha256).toBe(lowerExtension(BASE).source.sha256);
  });
});
