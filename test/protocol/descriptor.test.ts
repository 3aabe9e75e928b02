/**
 * Revision descriptors and the per-request result facts against the spec, derived by hand from the released
 * schema.ts files (not from the generator): which revisions negotiate with a handshake, which accept batches, which
 * results declare `resultType` / caching hints or may be an `InputRequiredResult`.
 */
import { describe, expect, it } from "vitest";
import { revisionDescriptors, revisions } from "../../runtime/generated/protocol/revisions.ts";
import type { AnyMethodType, RevisionDescriptor } from "../../runtime/protocol/method-type.ts";
import { RELEASED, specModel } from "./spec.ts";

/** revision → [era, batches (JSONRPCBatchRequest in JSONRPCMessage), has InputRequiredResult]. */
const REVISIONS: Record<(typeof RELEASED)[number], [RevisionDescriptor["era"], boolean, boolean]> = {
  "2024-11-05": ["handshake", false, false],
  "2025-03-26": ["handshake", true, false],
  "2025-06-18": ["handshake", false, false],
  "2025-11-25": ["handshake", false, false],
  "2026-07-28": ["stateless", false, true],
};

/** 2026-07-28: results extending CacheableResult (ttlMs + cacheScope). */
const CACHEABLE = new Set([
  "server/discover",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "tools/list",
]);
/** 2026-07-28: the results of embedded requests do not extend Result, so they declare no `resultType`. */
const NO_RESULT_TYPE = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);
/** 2026-07-28: `result: XResult | InputRequiredResult` in the response envelope. */
const INPUT_REQUIRED: Record<string, string> = {
  "tools/call": "CallToolResultSchema",
  "prompts/get": "GetPromptResultSchema",
  "resources/read": "ReadResourceResultSchema",
};

describe.each(RELEASED)("revision descriptor %s", (name) => {
  const [era, batches, inputRequired] = REVISIONS[name];
  const bindings = revisions[name];
  const descriptor: RevisionDescriptor = bindings.revision;
  const stateless = era === "stateless";
  const schemas = bindings as unknown as Record<string, unknown>;

  it("states the era, wire version, batches and input-required result the spec gives", () => {
    expect(descriptor.name).toBe(name);
    // Every released schema's LATEST_PROTOCOL_VERSION is its own date.
    expect(descriptor.version).toBe(name);
    expect(descriptor.era).toBe(era);
    expect(descriptor.batches).toBe(batches);
    expect(descriptor.methods).toBe(bindings.methods);
    if (inputRequired) expect(descriptor.inputRequiredResult).toBe(schemas["InputRequiredResultSchema"]);
    else expect(descriptor.inputRequiredResult).toBeUndefined();
    expect(revisionDescriptors).toContain(descriptor);
  });

  it("records the same facts in ir.json's model", () => {
    const { protocol } = specModel(name);
    expect(protocol).toEqual({
      era,
      version: name,
      versionSource: "LATEST_PROTOCOL_VERSION",
      batches,
      ...(inputRequired ? { inputRequiredResult: "InputRequiredResult" } : {}),
    });
  });

  it("gives every request its result facts", () => {
    const tokens = Object.values(bindings.methods as Record<string, AnyMethodType>);
    const requests = tokens.filter((t) => t.kind === "request");
    expect(requests.length).toBeGreaterThan(5);
    for (const token of requests) {
      const complete = INPUT_REQUIRED[token.method];
      // Before 2026-07-28 no result declares resultType; from then on, Result itself does.
      if (stateless) expect(token.delivery === "embedded", token.method).toBe(NO_RESULT_TYPE.has(token.method));
      expect(token.resultType, token.method).toBe(stateless && !NO_RESULT_TYPE.has(token.method));
      expect(token.cacheable, token.method).toBe(stateless && CACHEABLE.has(token.method));
      expect(token.inputRequired, token.method).toBe(stateless && complete !== undefined);
      if (stateless && complete) expect(token.completeResult, token.method).toBe(schemas[complete]);
      else expect(token.completeResult, token.method).toBe(token.result);
    }
  });
});

describe("revision descriptors list", () => {
  it("holds one descriptor per released revision, oldest first", () => {
    expect(revisionDescriptors.map((d) => d.name)).toEqual([...RELEASED]);
  });
});
