/**
 * The JSON-RPC building blocks (runtime/jsonrpc/), asserted on whole values: `classify` for every kind of frame, the
 * error classes, `withMeta`/`metaOf`, and `LineDecoder` at stream end and at its default line cap.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import {
  ConnectionClosedError,
  ErrorCode,
  ProtocolUsageError,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
} from "../../../runtime/jsonrpc/errors.ts";
import { encodeLine, LineDecoder } from "../../../runtime/jsonrpc/framing.ts";
import { classify } from "../../../runtime/jsonrpc/messages.ts";
import { metaOf, withMeta } from "../../../runtime/jsonrpc/params-meta.ts";

const NOT_OBJECT = { kind: "invalid", id: null, reason: "a JSON-RPC message must be a JSON object" };

describe("classify", () => {
  it("rejects every non-object frame without throwing", () => {
    for (const frame of [
      null,
      undefined,
      0,
      42,
      -1.5,
      "",
      "text",
      true,
      false,
      [],
      [{ jsonrpc: "2.0", id: 1, method: "a" }],
    ]) {
      expect(classify(frame)).toEqual(NOT_OBJECT);
    }
  });

  it("returns requests and notifications with the message itself", () => {
    const request = { jsonrpc: "2.0", id: 1, method: "a", params: { x: 1 } };
    expect(classify(request)).toEqual({ kind: "request", message: request });
    expect(classify(request).kind === "request" && classify(request)).toHaveProperty("message", request);
    const stringId = { jsonrpc: "2.0", id: "req-1", method: "a", params: [1] };
    expect(classify(stringId)).toEqual({ kind: "request", message: stringId });
    expect(classify({ jsonrpc: "2.0", id: "", method: "a" })).toMatchObject({ kind: "request" });
    expect(classify({ jsonrpc: "2.0", id: 0, method: "a" })).toMatchObject({ kind: "request" });
    expect(classify({ jsonrpc: "2.0", id: -7, method: "a" })).toMatchObject({ kind: "request" });
    const note = { jsonrpc: "2.0", method: "n" };
    expect(classify(note)).toEqual({ kind: "notification", message: note });
    const noteParams = { jsonrpc: "2.0", method: "n", params: [] };
    expect(classify(noteParams)).toEqual({ kind: "notification", message: noteParams });
  });

  it("says why a request is invalid, keeping a usable id", () => {
    expect(classify({ id: 3, method: "a" })).toEqual({
      kind: "invalid",
      id: 3,
      reason: 'jsonrpc must be exactly "2.0"',
    });
    expect(classify({ jsonrpc: 2, id: "s", method: "a" })).toEqual({
      kind: "invalid",
      id: "s",
      reason: 'jsonrpc must be exactly "2.0"',
    });
    expect(classify({ jsonrpc: "2.0", id: 4, method: 5 })).toEqual({
      kind: "invalid",
      id: 4,
      reason: "method must be a string",
    });
    expect(classify({ jsonrpc: "2.0", id: 4, method: null })).toEqual({
      kind: "invalid",
      id: 4,
      reason: "method must be a string",
    });
    for (const params of [null, 1, "p", true]) {
      expect(classify({ jsonrpc: "2.0", id: 5, method: "a", params })).toEqual({
        kind: "invalid",
        id: 5,
        reason: "params must be an object or an array",
      });
    }
    const badId = "id must be a string or an integer of magnitude at most 2^53-1 (not null)";
    for (const id of [null, 1.5, true, {}, [], Number.MAX_SAFE_INTEGER + 1, -(2 ** 60), Infinity, NaN]) {
      expect(classify({ jsonrpc: "2.0", id, method: "a" })).toEqual({ kind: "invalid", id: null, reason: badId });
    }
    expect(classify({ jsonrpc: "2.0", id: Number.MAX_SAFE_INTEGER, method: "a" })).toMatchObject({ kind: "request" });
    expect(classify({ jsonrpc: "2.0", id: Number.MIN_SAFE_INTEGER, method: "a" })).toMatchObject({ kind: "request" });
  });

  it("sorts responses and says why a response is invalid", () => {
    const ok = { jsonrpc: "2.0", id: 1, result: null };
    expect(classify(ok)).toEqual({ kind: "response", message: ok });
    const okString = { jsonrpc: "2.0", id: "a", result: {} };
    expect(classify(okString)).toEqual({ kind: "response", message: okString });
    const failed = { jsonrpc: "2.0", id: 2, error: { code: -32000, message: "m", data: 1 } };
    expect(classify(failed)).toEqual({ kind: "response", message: failed });
    const failedNull = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "" } };
    expect(classify(failedNull)).toEqual({ kind: "response", message: failedNull });
    const failedNoId = { jsonrpc: "2.0", error: { code: 1, message: "m" } };
    expect(classify(failedNoId)).toEqual({ kind: "response", message: failedNoId });

    const exactlyOne = "a response must carry exactly one of result and error";
    expect(classify({ jsonrpc: "2.0", id: 1 })).toEqual({ kind: "invalid", id: 1, reason: exactlyOne });
    expect(classify({ jsonrpc: "2.0", id: 1, result: 1, error: { code: 1, message: "m" } })).toEqual({
      kind: "invalid",
      id: 1,
      reason: exactlyOne,
    });
    expect(classify({ jsonrpc: "2.0", id: 1, result: undefined })).toMatchObject({ kind: "response" });

    const badError = "error must be an object with an integer code and a string message";
    for (const error of [
      null,
      "boom",
      5,
      [],
      { code: "1", message: "m" },
      { code: 1.5, message: "m" },
      { code: 1 },
      { message: "m" },
      { code: 1, message: 2 },
    ]) {
      expect(classify({ jsonrpc: "2.0", id: 9, error })).toEqual({ kind: "invalid", id: 9, reason: badError });
    }
    for (const id of [1.5, {}, true]) {
      expect(classify({ jsonrpc: "2.0", id, error: { code: 1, message: "m" } })).toEqual({
        kind: "invalid",
        id: null,
        reason: "bad response id",
      });
    }
    for (const id of [null, undefined, 1.5]) {
      expect(classify({ jsonrpc: "2.0", id, result: {} })).toEqual({
        kind: "invalid",
        id: null,
        reason: "a result response needs a string or integer id",
      });
    }
  });
});

describe("error classes", () => {
  it("RpcError: wire form with and without data, and back", () => {
    const plain = new RpcError(ErrorCode.InvalidParams, "bad");
    expect([plain.name, plain.code, plain.message, plain.data]).toEqual(["RpcError", -32602, "bad", undefined]);
    expect(plain.toJSON()).toEqual({ code: -32602, message: "bad" });
    expect(Object.keys(plain.toJSON())).toEqual(["code", "message"]);
    const withData = new RpcError(-32001, "m", { a: 1 });
    expect(withData.toJSON()).toEqual({ code: -32001, message: "m", data: { a: 1 } });
    expect(new RpcError(1, "m", null).toJSON()).toEqual({ code: 1, message: "m", data: null });
    const back = RpcError.from({ code: 7, message: "x", data: [1] });
    expect(back).toBeInstanceOf(RpcError);
    expect([back.code, back.message, back.data]).toEqual([7, "x", [1]]);
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
  });

  it("local errors say what happened", () => {
    const bare = new ConnectionClosedError();
    expect([bare.name, bare.message, bare.cause]).toEqual(["ConnectionClosedError", "connection closed", undefined]);
    const reason = new Error("EPIPE");
    const caused = new ConnectionClosedError(reason);
    expect([caused.message, caused.cause]).toEqual(["connection closed: EPIPE", reason]);
    const timeout = new RequestTimeoutError("tools/call", 250);
    expect([timeout.name, timeout.message, timeout.method, timeout.timeoutMs]).toEqual([
      "RequestTimeoutError",
      "request tools/call timed out after 250 ms",
      "tools/call",
      250,
    ]);
    expect(new RequestCancelledError("m", "why").message).toBe("request m was cancelled: why");
    expect(new RequestCancelledError("m", new Error("x")).message).toBe("request m was cancelled");
    const cancelled = new RequestCancelledError("m");
    expect([cancelled.name, cancelled.method, cancelled.message]).toEqual([
      "RequestCancelledError",
      "m",
      "request m was cancelled",
    ]);
    const usage = new ProtocolUsageError("no capability");
    expect([usage.name, usage.message]).toEqual(["ProtocolUsageError", "no capability"]);
  });
});

describe("params _meta", () => {
  it("reads _meta only from objects", () => {
    expect(metaOf(undefined)).toBeUndefined();
    expect(metaOf(null)).toBeUndefined();
    expect(metaOf("x")).toBeUndefined();
    expect(metaOf({})).toBeUndefined();
    expect(metaOf({ _meta: null })).toBeUndefined();
    expect(metaOf({ _meta: "m" })).toBeUndefined();
    expect(metaOf({ _meta: { a: 1 } })).toEqual({ a: 1 });
  });

  it("merges into a copy and never changes the caller's objects", () => {
    const meta = { a: 1 };
    const params = { x: 1, _meta: meta };
    const out = withMeta(params, { b: 2 });
    expect(out).toEqual({ x: 1, _meta: { a: 1, b: 2 } });
    expect(params).toEqual({ x: 1, _meta: { a: 1 } });
    expect(out["_meta"]).not.toBe(meta);
    expect(withMeta(undefined, { t: 1 })).toEqual({ _meta: { t: 1 } });
    expect(withMeta(null, { t: 1 })).toEqual({ _meta: { t: 1 } });
    expect(withMeta(7, { t: 1 })).toEqual({ _meta: { t: 1 } });
    expect(withMeta({ _meta: "bad", y: 2 }, { t: 1 })).toEqual({ y: 2, _meta: { t: 1 } });
    expect(withMeta({ _meta: { t: 0 } }, { t: 1 })).toEqual({ _meta: { t: 1 } });
  });
});

describe("LineDecoder", () => {
  it("skips empty lines, trims one CR, and encodes one line per message", () => {
    const d = new LineDecoder();
    expect(d.push(Buffer.from("\n\r\n{}\r\r\n\n[1]\n"))).toEqual(["{}\r", "[1]"]);
    expect(encodeLine({ a: "x\ny" })).toBe('{"a":"x\\ny"}\n');
  });

  it("returns the last line without a newline at the end of the stream, once", () => {
    const d = new LineDecoder();
    expect(d.push(Buffer.from('{"a":1}\n{"b":'))).toEqual(['{"a":1}']);
    expect(d.push(Buffer.from("2}\r"))).toEqual([]);
    expect(d.buffered).toBe(8);
    expect(d.end()).toBe('{"b":2}');
    expect(d.end()).toBeUndefined();
    expect(d.buffered).toBe(0);
    const empty = new LineDecoder();
    expect(empty.end()).toBeUndefined();
    empty.push(Buffer.from("\r"));
    expect(empty.end()).toBeUndefined();
  });

  it("reports an oversized last line at the end instead of returning it", () => {
    const d = new LineDecoder(4);
    expect(d.push(Buffer.from("12345"))).toEqual([]);
    expect(d.buffered).toBe(5);
    expect(d.push(Buffer.from("67"))).toEqual([]);
    expect(d.end()).toEqual({ oversized: 7 });
    expect(d.end()).toBeUndefined();
    expect(d.push(Buffer.from("ab\n"))).toEqual(["ab"]);
  });

  it("accepts a line of exactly the cap and drops one byte more", () => {
    const d = new LineDecoder(4);
    expect(d.push(Buffer.from("ab"))).toEqual([]);
    expect(d.push(Buffer.from("cd"))).toEqual([]);
    expect(d.push(Buffer.from("\n"))).toEqual(["abcd"]);
    expect(d.push(Buffer.from("abcde"))).toEqual([]);
    expect(d.push(Buffer.from("\nz\n"))).toEqual([{ oversized: 5 }, "z"]);
  });

  it("caps lines at 64 MiB by default: a 1 MiB message arriving in pieces passes, one byte over the cap is dropped", () => {
    const d = new LineDecoder();
    const big = "x".repeat(1024 * 1024);
    // The cap applies to the unfinished line kept between chunks.
    expect(d.push(Buffer.from(big))).toEqual([]);
    expect(d.push(Buffer.from("\n"))).toEqual([big]);
    // Parts are kept by reference: the 64 MiB chunk (exactly the cap) is held, the next byte drops the line.
    expect(d.push(Buffer.alloc(64 * 1024 * 1024, 0x61))).toEqual([]);
    expect(d.push(Buffer.from("b"))).toEqual([]);
    expect(d.push(Buffer.from("\n{}\n"))).toEqual([{ oversized: 64 * 1024 * 1024 + 1 }, "{}"]);
  });

  it("reassembles a line split across chunks right after an oversized one", () => {
    const d = new LineDecoder(4);
    expect(d.push(Buffer.from("123456"))).toEqual([]);
    expect(d.push(Buffer.from("78\nab"))).toEqual([{ oversized: 8 }]);
    expect(d.push(Buffer.from("c\n"))).toEqual(["abc"]);
  });
});
