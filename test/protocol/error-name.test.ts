/**
 * The spec (2025-11-25 on) declares an interface named `Error`. It is exported under that name, and generated code
 * never needs the global `Error`, so nothing generated can be shadowed by it: outside types.ts, `Error` only appears
 * qualified (`T.Error`) or inside a longer name (`ErrorSchema`, `JSONRPCErrorResponse`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as P from "../../runtime/generated/protocol/2025-11-25/index.ts";
import { PROTOCOL_OUT } from "../../scripts/generate-protocol.ts";

describe("the spec's Error interface", () => {
  it("is exported with its schema, and the global Error still works next to it", () => {
    const error: P.Error = { code: P.INVALID_PARAMS, message: "bad" };
    expect(P.ErrorSchema.parse(error)).toEqual(error);
    expect(new Error("x")).toBeInstanceOf(globalThis.Error);
  });

  it("is never referenced unqualified outside types.ts", () => {
    for (const revision of readdirSync(PROTOCOL_OUT).filter((d) => !d.endsWith(".ts"))) {
      for (const file of ["schemas.ts", "methods.ts", "constants.ts", "index.ts"]) {
        const code = readFileSync(path.join(PROTOCOL_OUT, revision, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
        expect(code, `${revision}/${file}`).not.toMatch(/(?<![.\w])Error(?!\w)/);
      }
    }
  });
});
