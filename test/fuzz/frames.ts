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

export type Outcome = "result" | number;
/** An acceptable `id` of the answer: the k-th placeholder, null, an exact value, or exact digits in the raw text. */
export type IdExpect =
  { readonly self: number } | null | { readonly value: string | number } | { readonly raw: string };
export type Expect =
  | { readonly kind: "none" }
  | { readonly kind: "one"; readonly outcomes: readonly Outcome[]; readonly ids: readonly IdExpect[] }
  | { readonly kind: "batch"; readonly elements: readonly Expect[] };

export interface Frame {
  readonly label: string;
  readonly bytes: Buffer;
  readonly expect: Expect;
}

export interface FrameContext {
  /** Stateless era (2026-07-28): every request carries `_meta` and must be mirrorable into headers. */
  readonly modern: boolean;
  /** The revision has JSON-RPC batches (2025-03-26). */
  readonly batches: boolean;
  /** Responses from the client are refused (stateless Streamable HTTP: "the client MUST NOT send responses"). */
  readonly refusesResponses?: boolean;
}

export const placeholder = (k = 0): string => `"@@ID${k}@@"`;
const SELF = { self: 0 };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** Marks where raw (non-JSON-encodable) bytes go: `"@@RAW@@"` in the stringified text. */
const RAW = "@@RAW@@";

/** The cheapest request with a known result: `ping`, which 2026-07-28 dropped for `server/discover`. */
const ping = (ctx: FrameContext): string => (ctx.modern ? "server/discover" : "ping");
const one = (outcomes: Outcome[], ids: IdExpect[] = [SELF]): Expect => ({ kind: "one", outcomes, ids });
const err = (code: number, ids: IdExpect[] = [SELF]): Expect => one([code], ids);
const OK = one(["result"]);
const NONE: Expect = { kind: "none" };

function withMeta(ctx: FrameContext, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!ctx.modern) return params;
  const meta = params?.["_meta"];
  return { ...params, _meta: { ...(typeof meta === "object" && meta !== null ? meta : {}), ...META } };
}

/** A request as text; `id` is inserted raw (a placeholder, or digits). */
function request(ctx: FrameContext, method: unknown, params?: Record<string, unknown>, id = placeholder()): string {
  const p = withMeta(ctx, params);
  const body = JSON.stringify({ jsonrpc: "2.0", id: "@@IDSLOT@@", method, ...(p === undefined ? {} : { params: p }) });
  return body.replace(`"@@IDSLOT@@"`, id);
}

function frame(label: string, text: string | Buffer, expect: Expect): Frame {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  // How fast-check prints a counterexample: the class, the expectation and the first bytes (frames can be 800 kB).
  const preview = bytes.subarray(0, 300).toString("latin1");
  return Object.assign(
    { label, bytes, expect },
    {
      [fc.toStringMethod]: () =>
        `${label} (${bytes.length} bytes, expect ${JSON.stringify(expect)}): ${JSON.stringify(preview)}`,
    },
  );
}

/** `text` with `"@@RAW@@"` replaced by raw bytes. */
function withRaw(text: string, raw: Buffer): Buffer {
  const at = text.indexOf(`"${RAW}"`);
  return Buffer.concat([Buffer.from(text.slice(0, at)), raw, Buffer.from(text.slice(at + RAW.length + 2))]);
}

const PROTO_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "isPrototypeOf",
];
/** Methods a server does not serve: a prefix no revision uses, prototype names, client-side methods. */
const unknownMethod = fc.oneof(
  fc.string({ unit: "binary-ascii", maxLength: 30 }).map((s) => `fuzz/${s}`),
  fc.constantFrom(
    ...PROTO_NAMES,
    "sampling/createMessage",
    "roots/list",
    "elicitation/create",
    "",
    "PING",
    "ping ",
    "tools/",
  ),
);
const headerSafeMethod = unknownMethod.filter((m) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(m));
const unknownName = fc.oneof(
  fc.string({ unit: "binary", maxLength: 30 }).map((s) => `fuzz_${s}`),
  fc.constantFrom(...PROTO_NAMES),
);
const junk = fc.jsonValue({ maxDepth: 3 });
const nonStructured = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null));
const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(junk, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }),
);

/** Requests with a known successful answer, in both eras. */
function validRequest(
  ctx: FrameContext,
): fc.Arbitrary<{ method: string; params: Record<string, unknown> | undefined }> {
  return fc.constantFrom(
    { method: ping(ctx), params: undefined },
    { method: "tools/list", params: undefined },
    { method: "prompts/list", params: undefined },
    { method: "resources/list", params: {} },
    { method: "tools/call", params: { name: "test_simple_text", arguments: {} } },
    { method: "prompts/get", params: { name: "test_simple_prompt" } },
    ...(ctx.modern ? [] : [{ method: "resources/templates/list", params: {} }]),
  );
}

function randomBytes(): fc.Arbitrary<Frame> {
  return fc
    .uint8Array({ minLength: 1, maxLength: 2000 })
    .map((bytes) => Buffer.from(bytes.map((b) => (b === 0x0a ? 0x20 : b))))
    .filter((buf) => {
      const text = buf.toString("utf8");
      if (text.trim() === "") return false;
      try {
        JSON.parse(text);
        return false; // valid JSON by chance: not this class
      } catch {
        return true;
      }
    })
    .map((buf) => frame("random bytes", buf, err(-32700, [null])));
}

function truncated(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc.tuple(validRequest(ctx), fc.double({ min: 0, max: 1, noNaN: true })).map(([r, at]) => {
    const text = request(ctx, r.method, r.params, "7");
    const cut = 1 + Math.floor(at * (text.length - 2));
    return frame(`truncated at ${cut}`, text.slice(0, cut), err(-32700, [null]));
  });
}

/** Control characters raw inside a string or between tokens: not JSON (RFC 8259 §7 requires them escaped). */
function rawControl(ctx: FrameContext): fc.Arbitrary<Frame> {
  const control = fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x0a);
  return fc.tuple(control, fc.boolean()).map(([c, inString]) => {
    const text = inString ? request(ctx, ping(ctx), { s: RAW }) : request(ctx, ping(ctx));
    const bytes = inString
      ? withRaw(text, Buffer.from([0x22, 0x61, c, 0x62, 0x22]))
      : Buffer.concat([
          Buffer.from("{"),
          Buffer.from([c === 0x09 || c === 0x0d ? 0x01 : c]),
          Buffer.from(text.slice(1)),
        ]);
    return frame(
      `raw control 0x${c.toString(16)} ${inString ? "in a string" : "between tokens"}`,
      bytes,
      err(-32700, [null]),
    );
  });
}

/** Invalid UTF-8 inside a string: RFC 8259 leaves the handling open, so a parse error or a normal answer. */
function invalidUtf8(ctx: FrameContext): fc.Arbitrary<Frame> {
  const bad = fc.constantFrom(0x80, 0x9f, 0xbf, 0xc0, 0xc1, 0xf5, 0xfe, 0xff);
  return fc.array(bad, { minLength: 1, maxLength: 8 }).map((bytes) => {
    const raw = Buffer.concat([Buffer.from('"x'), Buffer.from(bytes), Buffer.from('"')]);
    return frame(
      "invalid UTF-8 in a string",
      withRaw(request(ctx, ping(ctx), { s: RAW }), raw),
      one(["result", -32700], [SELF, null]),
    );
  });
}

function deepNesting(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc
    .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), fc.constantFrom("params", "arguments", "id", "whole"))
    .map(([depth, arrays, where]) => {
      const nested = arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      const label = `nesting ${depth} deep (${arrays ? "arrays" : "objects"}) as ${where}`;
      switch (where) {
        case "params":
          return frame(label, withRaw(request(ctx, ping(ctx), { deep: RAW }), Buffer.from(nested)), OK);
        case "arguments":
          return frame(
            label,
            withRaw(
              request(ctx, "tools/call", { name: "test_simple_text", arguments: { deep: RAW } }),
              Buffer.from(nested),
            ),
            OK,
          );
        case "id":
          return frame(label, request(ctx, ping(ctx), undefined, nested), err(-32600, [null]));
        default: {
          const whole = "[".repeat(depth) + "]".repeat(depth);
          // An array is a batch: where batches exist each element is answered (an array is not a request).
          if (ctx.batches && depth > 1) return frame(label, whole, { kind: "batch", elements: [err(-32600, [null])] });
          return frame(label, whole, err(-32600, [null]));
        }
      }
    });
}

function hugeStrings(ctx: FrameContext): fc.Arbitrary<Frame> {
  const where = ctx.modern
    ? fc.constantFrom("param", "id", "jsonrpc")
    : fc.constantFrom("param", "id", "jsonrpc", "method", "tool");
  return fc
    .tuple(fc.integer({ min: 50_000, max: 800_000 }), fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), where)
    .map(([size, unit, at]) => {
      const big = unit.repeat(Math.ceil(size / unit.length));
      const label = `huge string (${big.length} units) as ${at}`;
      switch (at) {
        case "param":
          return frame(label, request(ctx, ping(ctx), { big }), OK);
        case "id":
          return frame(
            label,
            request(ctx, ping(ctx), undefined, JSON.stringify(big)),
            one(["result"], [{ value: big }]),
          );
        case "jsonrpc":
          return frame(
            label,
            request(ctx, ping(ctx)).replace('"jsonrpc":"2.0"', `"jsonrpc":${JSON.stringify(big)}`),
            err(-32600, [SELF, null]),
          );
        case "method":
          return frame(label, request(ctx, `fuzz/${big}`), err(-32601));
        default:
          return frame(label, request(ctx, "tools/call", { name: `fuzz_${big}`, arguments: {} }), err(-32602));
      }
    });
}

function wrongTypes(ctx: FrameContext): fc.Arbitrary<Frame> {
  const badVersion = fc.oneof(
    fc.constantFrom("1.0", "2", "2.0 ", "", " 2.0"),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.constant({}),
  );
  const oddId = fc.oneof(
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );
  const cases: fc.Arbitrary<Frame>[] = [
    badVersion.map((v) =>
      frame(
        `jsonrpc ${JSON.stringify(v)}`,
        request(ctx, ping(ctx)).replace('"jsonrpc":"2.0"', `"jsonrpc":${JSON.stringify(v)}`),
        err(-32600, [SELF, null]),
      ),
    ),
    notString.map((m) => frame(`method ${JSON.stringify(m)}`, request(ctx, m), err(-32600, [SELF, null]))),
    oddId.map((id) =>
      frame(`id ${JSON.stringify(id)}`, request(ctx, ping(ctx), undefined, JSON.stringify(id)), err(-32600, [null])),
    ),
    // MCP's RequestId is `string | number`, JSON-RPC says ids SHOULD NOT be fractional: answered as sent, or refused.
    fc
      .double({ min: -1e6, max: 1e6, noNaN: true })
      .filter((d) => !Number.isInteger(d))
      .map((d) =>
        frame(
          `fractional id ${d}`,
          request(ctx, ping(ctx), undefined, JSON.stringify(d)),
          one(["result", -32600], [{ value: d }, null]),
        ),
      ),
    notString
      .filter((v) => typeof v !== "object" || v === null)
      .map((v) =>
        frame(
          `tools/call arguments ${JSON.stringify(v)}`,
          request(ctx, "tools/call", { name: "test_simple_text", arguments: v }),
          err(-32602),
        ),
      ),
    fc
      .array(junk, { minLength: 1, maxLength: 3 })
      .map((v) =>
        frame(
          `tools/call arguments array`,
          request(ctx, "tools/call", { name: "test_simple_text", arguments: v }),
          err(-32602),
        ),
      ),
    notString.map((v) =>
      frame(`tools/list cursor ${JSON.stringify(v)}`, request(ctx, "tools/list", { cursor: v }), err(-32602)),
    ),
    notString.map((v) =>
      frame(
        `prompts/get argument ${JSON.stringify(v)}`,
        request(ctx, "prompts/get", { name: "test_prompt_with_arguments", arguments: { arg1: v, arg2: "b" } }),
        err(-32602),
      ),
    ),
  ];
  if (!ctx.modern)
    cases.push(
      // JSON-RPC 2.0 §4.2: params MUST be structured; MCP: params MUST be an object.
      nonStructured.map((v) =>
        frame(
          `params ${JSON.stringify(v)}`,
          request(ctx, ping(ctx)).replace(/}$/, `,"params":${JSON.stringify(v)}}`),
          err(-32600, [SELF, null]),
        ),
      ),
      fc
        .array(junk, { maxLength: 3 })
        .map((v) =>
          frame(`params array`, request(ctx, ping(ctx)).replace(/}$/, `,"params":${JSON.stringify(v)}}`), err(-32602)),
        ),
      notString.map((v) =>
        frame(
          `tools/call name ${JSON.stringify(v)}`,
          request(ctx, "tools/call", { name: v, arguments: {} }),
          err(-32602),
        ),
      ),
    );
  return fc.oneof(...cases);
}

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
