/** Unit tests of the small pieces: request state, URI templates, pagination, capabilities, revision profiles, memory pair. */
import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { RpcError } from "../../runtime/jsonrpc/errors.ts";
import { paginate } from "../../runtime/server/pagination.ts";
import {
  digestParams,
  principalOf,
  RequestStateSealer,
  type RequestBinding,
} from "../../runtime/server/request-state.ts";
import { matchUriTemplate } from "../../runtime/protocol/uri-template.ts";
import {
  capabilityFor,
  elicitationModeAllowed,
  hasCapability,
  mergeCapabilities,
} from "../../runtime/protocol/capabilities.ts";
import { rankProfiles } from "../../runtime/protocol/preference.ts";
import { eraOf, getProfile, selectProfiles } from "./builtin-lookup.ts";
import { SUPPORTED_REVISIONS } from "../../runtime/protocol/preference.ts";
import { createMemoryTransportPair } from "../../runtime/transport/memory.ts";

describe("RequestStateSealer", () => {
  const binding: RequestBinding = {
    method: "tools/call",
    params: { name: "t", arguments: { x: 1 }, _meta: { a: 1 } },
    principal: "alice",
  };
  const sealer = new RequestStateSealer("key", 60_000);

  it("round-trips and ignores _meta and MRTR fields in the request digest", async () => {
    const state = await sealer.seal(binding, { answers: { "input-0": { action: "accept" } } });
    const retry = {
      ...binding,
      params: { arguments: { x: 1 }, name: "t", requestState: state, inputResponses: {}, _meta: { b: 2 } },
    };
    expect(await sealer.open(retry, state)).toEqual({ answers: { "input-0": { action: "accept" } } });
    expect(await digestParams({ b: [1, { d: 2, c: 3 }], a: 1 })).toBe(
      await digestParams({ a: 1, b: [1, { c: 3, d: 2 }] }),
    );
    expect(await digestParams({ a: 1 })).not.toBe(await digestParams({ a: 2 }));
  });

  it("rejects tampering, another key, another request, another principal, expiry", async () => {
    const state = await sealer.seal(binding, { answers: { k: 1 } });
    const [body, mac] = state.split(".") as [string, string];
    const forged = Buffer.from(Buffer.from(body, "base64url").toString().replace('"k":1', '"k":2')).toString(
      "base64url",
    );
    const reject = async (s: RequestStateSealer, b: typeof binding, st: string) => {
      try {
        await s.open(b, st);
        return "accepted";
      } catch (error) {
        expect(error).toBeInstanceOf(RpcError);
        expect((error as RpcError).code).toBe(-32602);
        return (error as RpcError).message;
      }
    };
    expect(await reject(sealer, binding, `${forged}.${mac}`)).toContain("integrity");
    expect(await reject(sealer, binding, "garbage")).toContain("integrity");
    expect(await reject(sealer, binding, `${body}.${mac}!`)).toContain("integrity");
    expect(await reject(new RequestStateSealer("other", 60_000), binding, state)).toContain("integrity");
    expect(await reject(sealer, { ...binding, params: { name: "t", arguments: { x: 2 } } }, state)).toContain(
      "different request",
    );
    expect(await reject(sealer, { ...binding, method: "prompts/get" }, state)).toContain("different request");
    expect(await reject(sealer, { ...binding, principal: "mallory" }, state)).toContain("different principal");
    const expired = await new RequestStateSealer("key", -1).seal(binding, { answers: {} });
    expect(await reject(sealer, binding, expired)).toContain("expired");
  });

  it("is an HMAC-SHA256 of the body under the given key (checked with node:crypto)", async () => {
    const state = await sealer.seal(binding, { answers: {} });
    const [body, mac] = state.split(".") as [string, string];
    expect(mac).toBe(createHmac("sha256", "key").update(body).digest("base64url"));
  });

  it("draws no randomness until a default-key sealer first seals", async () => {
    const spy = vi.spyOn(globalThis.crypto, "getRandomValues");
    try {
      const lazy = new RequestStateSealer(undefined, 60_000);
      expect(spy).not.toHaveBeenCalled();
      const state = await lazy.seal(binding, { answers: {} });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await lazy.open(binding, state)).toEqual({ answers: {} });
    } finally {
      spy.mockRestore();
    }
  });

  it("derives principals from auth info", () => {
    expect(principalOf(undefined)).toBe("");
    expect(principalOf({ clientId: "c1", token: "t" })).toBe('client:[null,"c1"]'); // the one rule (transport/principal.ts)
    expect(principalOf({ token: "t" })).not.toBe(principalOf({ token: "u" }));
  });
});

describe("matchUriTemplate", () => {
  it("matches simple, reserved and query expressions", () => {
    expect(matchUriTemplate("demo://items/{id}", "demo://items/42")).toEqual({ id: "42" });
    expect(matchUriTemplate("demo://items/{id}", "demo://items/4/2")).toBeUndefined();
    expect(matchUriTemplate("file:///{+path}", "file:///a/b%20c.txt")).toEqual({ path: "a/b c.txt" });
    expect(matchUriTemplate("s://q{?a,b}", "s://q?a=1&b=x")).toEqual({ a: "1", b: "x" });
    expect(matchUriTemplate("a.b://{x}", "aXb://1")).toBeUndefined();
  });
});

describe("paginate", () => {
  it("walks pages with opaque cursors and rejects bad ones", () => {
    const items = [1, 2, 3, 4, 5];
    const first = paginate(items, undefined, 2);
    expect(first.page).toEqual([1, 2]);
    const second = paginate(items, first.nextCursor, 2);
    const third = paginate(items, second.nextCursor, 2);
    expect([second.page, third.page, third.nextCursor]).toEqual([[3, 4], [5], undefined]);
    expect(paginate(items, undefined, 0)).toEqual({ page: items });
    expect(() => paginate(items, "bogus", 2)).toThrow(/cursor/);
    expect(() => paginate(items, 12, 2)).toThrow(/cursor/);
  });
});

describe("capabilities", () => {
  it("checks, builds and merges capability paths", () => {
    expect(hasCapability({ resources: { subscribe: true } }, ["resources", "subscribe"])).toBe(true);
    expect(hasCapability({ resources: {} }, ["resources", "subscribe"])).toBe(false);
    expect(hasCapability({ resources: { subscribe: false } }, ["resources", "subscribe"])).toBe(false);
    expect(capabilityFor({ side: "client", path: ["roots", "listChanged"] })).toEqual({ roots: { listChanged: {} } });
    expect(mergeCapabilities({ tools: { a: 1 } }, { tools: { b: 2 }, x: {} })).toEqual({
      tools: { a: 1, b: 2 },
      x: {},
    });
    expect(elicitationModeAllowed({ elicitation: {} }, { message: "m" })).toBe(true);
    expect(elicitationModeAllowed({ elicitation: {} }, { mode: "url" })).toBe(false);
    expect(elicitationModeAllowed({ elicitation: { url: {} } }, { mode: "url" })).toBe(true);
    expect(elicitationModeAllowed({ elicitation: { url: {} } }, { mode: "form" })).toBe(false);
    expect(elicitationModeAllowed({ elicitation: { form: {} } }, {})).toBe(true);
    expect(elicitationModeAllowed({}, {})).toBe(false);
  });
});

describe("revision profiles (read from the generated descriptors)", () => {
  // The oracle: each released revision's era as the spec states it (2026-07-28 replaced initialize with server/discover).
  const RELEASED_ERAS: Readonly<Record<string, "handshake" | "stateless">> = {
    "2024-11-05": "handshake",
    "2025-03-26": "handshake",
    "2025-06-18": "handshake",
    "2025-11-25": "handshake",
    "2026-07-28": "stateless",
  };

  it("covers every generated revision, newest first, with the era the spec gives it", () => {
    expect([...SUPPORTED_REVISIONS]).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    for (const revision of SUPPORTED_REVISIONS) {
      expect(eraOf(revision)).toBe(RELEASED_ERAS[revision]);
      const p = getProfile(revision)!;
      expect(p.era).toBe(RELEASED_ERAS[revision]);
      expect(p.version).toBe(revision);
      expect(Object.hasOwn(p.methods, p.era === "handshake" ? "initialize" : "server/discover")).toBe(true);
    }
    expect(() => rankProfiles(["1999-01-01"] as never)).toThrow(/"1999-01-01" given by name: pass its descriptor/);
    expect(() => selectProfiles(["2025-11-25", "2025-11-25"])).toThrow(/listed twice/);
    expect(eraOf("1999-01-01")).toBeUndefined();
  });

  it("finds multi round-trip methods, cacheable results, embedded requests and batches", () => {
    for (const p of selectProfiles()) {
      const inputRequired = [...p.requests.values()]
        .filter((r) => r.inputRequired)
        .map((r) => r.method)
        .sort();
      const cacheable = [...p.requests.values()]
        .filter((r) => r.cacheable)
        .map((r) => r.method)
        .sort();
      if (p.era === "stateless") {
        expect(inputRequired).toEqual(["prompts/get", "resources/read", "tools/call"]);
        expect(cacheable).toEqual([
          "prompts/list",
          "resources/list",
          "resources/read",
          "resources/templates/list",
          "server/discover",
          "tools/list",
        ]);
        expect([...p.embedded.keys()].sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
        expect(p.requests.get("tools/call")!.resultType).toBe(true);
        // The complete result rejects an InputRequiredResult; the full result accepts it.
        const asked = { resultType: "input_required", inputRequests: {}, requestState: "s" };
        expect(p.requests.get("tools/call")!.completeResult.safeParse(asked).success).toBe(false);
        expect(p.requests.get("tools/call")!.result.safeParse(asked).success).toBe(true);
      } else {
        expect(inputRequired).toEqual([]);
        expect(cacheable).toEqual([]);
        expect(p.embedded.size).toBe(0);
        expect(p.requests.get("tools/call")!.resultType).toBe(false);
      }
    }
    expect(
      selectProfiles()
        .filter((p) => p.batches)
        .map((p) => p.version),
    ).toEqual(["2025-03-26"]);
  });
});

describe("memory transport pair", () => {
  it("delivers in order, queues until started, and closes both ends", async () => {
    const [a, b] = createMemoryTransportPair();
    const got: unknown[] = [];
    let closedA = false;
    let closedB = false;
    await a.start({ receive: () => undefined, closed: () => (closedA = true) });
    await a.send({ n: 1 });
    await a.send({ n: 2 });
    await new Promise((r) => setTimeout(r, 0));
    await b.start({ receive: (frame) => got.push(frame), closed: () => (closedB = true) });
    await a.send({ n: 3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await b.close();
    await new Promise((r) => setTimeout(r, 0));
    expect([closedA, closedB]).toEqual([true, true]);
    await expect(a.send({ n: 4 })).rejects.toThrow(/closed/);
  });
});
