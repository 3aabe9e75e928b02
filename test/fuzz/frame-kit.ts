/**
 * The pieces every fuzz frame is built from (see frames.ts): expectations, ids as placeholders, `_meta` for the
 * stateless era, raw-byte splicing, and the arbitraries for names and junk values.
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
export const SELF = { self: 0 };
export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** Marks where raw (non-JSON-encodable) bytes go: `"@@RAW@@"` in the stringified text. */
export const RAW = "@@RAW@@";

/** The cheapest request with a known result: `ping`, which 2026-07-28 dropped for `server/discover`. */
export const ping = (ctx: FrameContext): string => (ctx.modern ? "server/discover" : "ping");
export const one = (outcomes: Outcome[], ids: IdExpect[] = [SELF]): Expect => ({ kind: "one", outcomes, ids });
export const err = (code: number, ids: IdExpect[] = [SELF]): Expect => one([code], ids);
export const OK = one(["result"]);
export const NONE: Expect = { kind: "none" };

export function withMeta(
  ctx: FrameContext,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!ctx.modern) return params;
  const meta = params?.["_meta"];
  return { ...params, _meta: { ...(typeof meta === "object" && meta !== null ? meta : {}), ...META } };
}

/** A request as text; `id` is inserted raw (a placeholder, or digits). */
export function request(
  ctx: FrameContext,
  method: unknown,
  params?: Record<string, unknown>,
  id = placeholder(),
): string {
  const p = withMeta(ctx, params);
  const body = JSON.stringify({ jsonrpc: "2.0", id: "@@IDSLOT@@", method, ...(p === undefined ? {} : { params: p }) });
  return body.replace(`"@@IDSLOT@@"`, id);
}

export function frame(label: string, text: string | Buffer, expect: Expect): Frame {
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
export function withRaw(text: string, raw: Buffer): Buffer {
  const at = text.indexOf(`"${RAW}"`);
  return Buffer.concat([Buffer.from(text.slice(0, at)), raw, Buffer.from(text.slice(at + RAW.length + 2))]);
}

export const PROTO_NAMES = [
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
export const unknownMethod = fc.oneof(
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
export const headerSafeMethod = unknownMethod.filter((m) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(m));
export const unknownName = fc.oneof(
  fc.string({ unit: "binary", maxLength: 30 }).map((s) => `fuzz_${s}`),
  fc.constantFrom(...PROTO_NAMES),
);
export const junk = fc.jsonValue({ maxDepth: 3 });
export const nonStructured = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null));
export const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(junk, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }),
);

/** Requests with a known successful answer, in both eras. */
export function validRequest(
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
