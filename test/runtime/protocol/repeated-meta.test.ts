/**
 * `withRepeatedMeta`: skipping the re-parse of a repeated `_meta` must never change an outcome — every value gets the
 * verdict and the data of the generated schema itself, whatever was validated before.
 */
import { describe, expect, it } from "vitest";
import * as S26 from "../../../runtime/generated/protocol/2026-07-28/schemas.ts";
import { withRepeatedMeta } from "../../../runtime/protocol/repeated-meta.ts";
import { formatIssues, type Validator } from "../../../runtime/protocol/validation.ts";

const meta = () => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "client", version: "1.0.0" },
});
const params = (m: unknown = meta()) => ({ name: "add", arguments: { a: 1, b: 2 }, _meta: m });

/** The verdict as a comparable value: the data on success, the formatted issues on failure. */
function verdict(validator: Validator<unknown>, value: unknown): unknown {
  const parsed = validator.safeParse(value);
  return parsed.success ? { ok: parsed.data } : { failed: formatIssues(parsed.error.issues, "params") };
}

describe("withRepeatedMeta", () => {
  const schema = S26.CallToolRequestParamsSchema as Validator<unknown>;

  it("splits open object schemas with _meta, and leaves other schemas alone", () => {
    expect(withRepeatedMeta(schema)).not.toBe(schema);
    expect(withRepeatedMeta(schema)).toBe(withRepeatedMeta(schema));
    expect(withRepeatedMeta(S26.ImplementationSchema as Validator<unknown>)).toBe(S26.ImplementationSchema);
  });

  it("gives the schema's own verdict, first time and repeated", () => {
    const split = withRepeatedMeta(schema);
    const cases: unknown[] = [
      params(),
      params(), // repeated: not re-parsed, same verdict
      params({ ...meta(), progressToken: 7 }),
      params({ ...meta(), "io.modelcontextprotocol/clientInfo": { name: 3 } }),
      params({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" }), // clientCapabilities missing
      params(undefined), // _meta is required in this era
      params("not an object"),
      { ...params(), name: 42 },
      { ...params({ ...meta(), "io.modelcontextprotocol/protocolVersion": 1 }), name: 42 }, // both parts fail
      "not an object",
      null,
      [],
    ];
    for (const value of cases) expect(verdict(split, value)).toEqual(verdict(schema, value));
  });

  it("does not trust a remembered _meta object that was changed after it passed", () => {
    const split = withRepeatedMeta(schema);
    const shared = meta() as Record<string, unknown>;
    expect(split.safeParse(params(shared)).success).toBe(true);
    (shared["io.modelcontextprotocol/clientInfo"] as Record<string, unknown>)["name"] = 42;
    const again = split.safeParse(params(shared));
    expect(again.success).toBe(false);
    expect(verdict(split, params(shared))).toEqual(verdict(schema, params(shared)));
  });

  it("tells equal-looking values apart: extra keys, inherited keys, arrays, numbers", () => {
    const split = withRepeatedMeta(schema);
    const base = { ...meta(), extra: [1, { x: 0 }] };
    expect(split.safeParse(params(base)).success).toBe(true);
    const variants: unknown[] = [
      { ...base, extra: [1, { x: -0 }] },
      { ...base, extra: [1, { x: 0 }, 2] },
      { ...base, "io.modelcontextprotocol/clientCapabilities": [] },
      { ...base, "io.modelcontextprotocol/logLevel": "loud" },
      Object.assign(Object.create({ inherited: 1 }) as object, base),
    ];
    for (const value of variants) expect(verdict(split, params(value))).toEqual(verdict(schema, params(value)));
  });

  it("validates results the same way (optional _meta)", () => {
    const result = S26.CallToolResultSchema as Validator<unknown>;
    const split = withRepeatedMeta(result);
    const ok = {
      resultType: "complete",
      content: [{ type: "text", text: "3" }],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
    };
    const cases: unknown[] = [
      ok,
      ok,
      { ...ok, _meta: undefined },
      { resultType: "complete", content: [] },
      { ...ok, _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" } } },
      { ...ok, content: "no" },
    ];
    for (const value of cases) expect(verdict(split, value)).toEqual(verdict(result, value));
  });
});
