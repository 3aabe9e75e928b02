/**
 * Malformed (and odd but valid) JSON-RPC frames, each built together with the answer JSON-RPC 2.0 and MCP
 * require for it. The expectation comes from how the frame was made (the independent oracle), never from the
 * code under test: a strict prefix of an object is not JSON (-32700), an id of type boolean is not an id
 * (-32600 with id null), a `fuzz/…` method exists in no revision (-32601), and so on.
 *
 * Request ids are placeholders (`"@@ID<k>@@"`) that the runner replaces with fresh numbers before sending, so
 * every answer can be matched to its frame.
 */
import fc from "fast-check";
import {
  type Expect,
  type Frame,
  type FrameContext,
  placeholder,
  SELF,
  RAW,
  ping,
  one,
  err,
  OK,
  NONE,
  withMeta,
  request,
  frame,
  withRaw,
  PROTO_NAMES,
  unknownMethod,
  headerSafeMethod,
  unknownName,
  notString,
  validRequest,
} from "./frame-kit.ts";
import {
  randomBytes,
  truncated,
  rawControl,
  invalidUtf8,
  deepNesting,
  hugeStrings,
  wrongTypes,
} from "./frames-malformed.ts";

export type { Expect, Frame, FrameContext, IdExpect, Outcome } from "./frame-kit.ts";

function prototypeKeys(ctx: FrameContext): fc.Arbitrary<Frame> {
  const name = fc.constantFrom(...PROTO_NAMES);
  const proto = `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`;
  return fc.oneof(
    name.map((m) => frame(`method ${m}`, request(ctx, m), err(-32601))),
    name.map((n) => frame(`tool ${n}`, request(ctx, "tools/call", { name: n, arguments: {} }), err(-32602))),
    name.map((n) => frame(`prompt ${n}`, request(ctx, "prompts/get", { name: n }), err(-32602))),
    fc.constant(
      frame(
        "prototype keys at top level",
        request(ctx, ping(ctx)).replace(/^{/, `{"__proto__":{"id":1},"constructor":{},`),
        OK,
      ),
    ),
    fc.constant(
      frame(
        "prototype keys in arguments",
        withRaw(request(ctx, "tools/call", { name: "test_simple_text", arguments: RAW }), Buffer.from(proto)),
        OK,
      ),
    ),
    fc.constant(
      frame("prototype keys in params", withRaw(request(ctx, ping(ctx), { x: RAW }), Buffer.from(proto)), OK),
    ),
  );
}

/** Escaped control characters and odd unicode are valid JSON: the strings just name nothing that exists. */
function escapedControl(ctx: FrameContext): fc.Arbitrary<Frame> {
  // A lone surrogate cannot be mirrored into a header (Base64 of UTF-8), so only the handshake era gets one.
  const units = [
    "\u0000",
    "\u0007",
    "\r",
    "\n",
    "\u001b",
    "\u2028",
    "\u202e",
    "\ufeff",
    "é",
    "–",
    ...(ctx.modern ? [] : ["\ud800"]),
  ];
  const odd = fc.string({ unit: fc.constantFrom(...units), minLength: 1, maxLength: 8 });
  const cases = [
    odd.map((s) =>
      frame(
        "control characters in a tool name",
        request(ctx, "tools/call", { name: `t${s}`, arguments: {} }),
        err(-32602),
      ),
    ),
    odd.map((s) => frame("control characters in a parameter", request(ctx, ping(ctx), { s }), OK)),
  ];
  if (!ctx.modern)
    cases.push(odd.map((s) => frame("control characters in a method", request(ctx, `${ping(ctx)}${s}`), err(-32601))));
  return fc.oneof(...cases);
}

/** Valid ids of unusual shape: answered with exactly that id. Integers beyond 2^53: echoed digit for digit, or refused. */
function oddValidIds(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc.oneof(
    fc
      .oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }))
      .map((id) =>
        frame(
          `id ${JSON.stringify(id)}`,
          request(ctx, ping(ctx), undefined, JSON.stringify(id)),
          one(["result"], [{ value: id }]),
        ),
      ),
    fc
      .bigInt({ min: 2n ** 53n + 1n, max: 10n ** 30n })
      .map((n) =>
        frame(
          `id ${n} (beyond 2^53)`,
          request(ctx, ping(ctx), undefined, String(n)),
          one(["result", -32600], [{ raw: String(n) }, null]),
        ),
      ),
  );
}

function notifications(ctx: FrameContext): fc.Arbitrary<Frame> {
  const note = (method: string, params?: Record<string, unknown>): string => {
    const p = withMeta(ctx, params);
    return JSON.stringify({ jsonrpc: "2.0", method, ...(p === undefined ? {} : { params: p }) });
  };
  return fc.oneof(
    headerSafeMethod.map((m) => frame(`notification ${m}`, note(m), NONE)),
    fc.constant(frame("cancel of an unknown request", note("notifications/cancelled", { requestId: 987654 }), NONE)),
    // Not a notification: no `method` string and no id (JSON-RPC 2.0 examples: -32600 with id null).
    notString.map((m) =>
      frame(
        `notification with method ${JSON.stringify(m)}`,
        JSON.stringify({ jsonrpc: "2.0", method: m }),
        err(-32600, [null]),
      ),
    ),
  );
}

/** Responses from the client: one to no request is dropped; one with both or neither of result/error is invalid. */
function responses(ctx: FrameContext): fc.Arbitrary<Frame> {
  // Where responses are refused: an HTTP error, whose body (if any) is an error without an id.
  const stray = ctx.refusesResponses ? err(-32600, [null]) : NONE;
  return fc.oneof(
    fc.constant(frame("response to no request", `{"jsonrpc":"2.0","id":${placeholder()},"result":{}}`, stray)),
    fc.constant(
      frame(
        "response with result and error",
        `{"jsonrpc":"2.0","id":${placeholder()},"result":{},"error":{"code":1,"message":"x"}}`,
        err(-32600, [SELF, null]),
      ),
    ),
    fc.constant(
      frame("response without result or error", `{"jsonrpc":"2.0","id":${placeholder()}}`, err(-32600, [SELF, null])),
    ),
  );
}

/** A batch of requests, notifications and invalid elements: each element answered on its own (JSON-RPC 2.0 §6). */
function batches(ctx: FrameContext): fc.Arbitrary<Frame> {
  type Element = { text: (k: number) => string; expect: (k: number) => Expect };
  const element: fc.Arbitrary<Element> = fc.oneof(
    fc.constant<Element>({
      text: (k) => request(ctx, ping(ctx), undefined, placeholder(k)),
      expect: (k) => one(["result"], [{ self: k }]),
    }),
    headerSafeMethod.map<Element>((m) => ({
      text: (k) => request(ctx, m, undefined, placeholder(k)),
      expect: (k) => one([-32601], [{ self: k }]),
    })),
    fc.constant<Element>({
      text: () => JSON.stringify({ jsonrpc: "2.0", method: "notifications/fuzz" }),
      expect: () => NONE,
    }),
    fc
      .constantFrom("5", '"x"', "{}", '{"jsonrpc":"2.0"}', "null", "[]")
      .map<Element>((t) => ({ text: () => t, expect: () => err(-32600, [null]) })),
  );
  return fc.array(element, { minLength: 0, maxLength: 6 }).map((elements) => {
    const text = `[${elements.map((e, k) => e.text(k)).join(",")}]`;
    const label = `batch of ${elements.length}`;
    if (elements.length === 0) return frame(label, text, err(-32600, [null]));
    if (!ctx.batches || ctx.modern) return frame(label, text, err(-32600, [null]));
    return frame(label, text, { kind: "batch", elements: elements.map((e, k) => e.expect(k)) });
  });
}

function unknownMethods(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc.oneof(
    (ctx.modern ? headerSafeMethod : unknownMethod).map((m) =>
      frame(`unknown method ${JSON.stringify(m)}`, request(ctx, m, {}), err(-32601)),
    ),
    unknownName.map((n) =>
      frame(`unknown tool ${JSON.stringify(n)}`, request(ctx, "tools/call", { name: n, arguments: {} }), err(-32602)),
    ),
    validRequest(ctx).map((r) => frame(`valid ${r.method}`, request(ctx, r.method, r.params), OK)),
  );
}

/** Every class, weighted so the cheap ones run most. */
export function anyFrame(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc.oneof(
    { arbitrary: randomBytes(), weight: 3 },
    { arbitrary: truncated(ctx), weight: 3 },
    { arbitrary: rawControl(ctx), weight: 2 },
    { arbitrary: invalidUtf8(ctx), weight: 1 },
    { arbitrary: deepNesting(ctx), weight: 1 },
    { arbitrary: hugeStrings(ctx), weight: 1 },
    { arbitrary: wrongTypes(ctx), weight: 4 },
    { arbitrary: prototypeKeys(ctx), weight: 2 },
    { arbitrary: escapedControl(ctx), weight: 2 },
    { arbitrary: oddValidIds(ctx), weight: 2 },
    { arbitrary: notifications(ctx), weight: 1 },
    { arbitrary: responses(ctx), weight: 1 },
    { arbitrary: batches(ctx), weight: 2 },
    { arbitrary: unknownMethods(ctx), weight: 3 },
  );
}

const MAX_PLACEHOLDERS = 16;

/** The frame with each placeholder k replaced by `base + k`. */
export function withIds(bytes: Buffer, base: number): Buffer {
  let out = bytes;
  for (let k = 0; k < MAX_PLACEHOLDERS; k++) {
    const token = Buffer.from(placeholder(k));
    let at: number;
    while ((at = out.indexOf(token)) !== -1)
      out = Buffer.concat([out.subarray(0, at), Buffer.from(String(base + k)), out.subarray(at + token.length)]);
  }
  return out;
}
