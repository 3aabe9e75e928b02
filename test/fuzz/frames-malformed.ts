/** Frames broken below the JSON-RPC level: random bytes, truncation, raw control bytes, bad UTF-8, deep nesting,
 * huge strings and wrong member types, each with the answer JSON-RPC 2.0 requires (see frames.ts). */
import fc from "fast-check";
import {
  type Frame,
  type FrameContext,
  SELF,
  RAW,
  ping,
  one,
  err,
  OK,
  request,
  frame,
  withRaw,
  junk,
  nonStructured,
  notString,
  validRequest,
} from "./frame-kit.ts";

export function randomBytes(): fc.Arbitrary<Frame> {
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

export function truncated(ctx: FrameContext): fc.Arbitrary<Frame> {
  return fc.tuple(validRequest(ctx), fc.double({ min: 0, max: 1, noNaN: true })).map(([r, at]) => {
    const text = request(ctx, r.method, r.params, "7");
    const cut = 1 + Math.floor(at * (text.length - 2));
    return frame(`truncated at ${cut}`, text.slice(0, cut), err(-32700, [null]));
  });
}

/** Control characters raw inside a string or between tokens: not JSON (RFC 8259 §7 requires them escaped). */
export function rawControl(ctx: FrameContext): fc.Arbitrary<Frame> {
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
export function invalidUtf8(ctx: FrameContext): fc.Arbitrary<Frame> {
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

export function deepNesting(ctx: FrameContext): fc.Arbitrary<Frame> {
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

export function hugeStrings(ctx: FrameContext): fc.Arbitrary<Frame> {
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

export function wrongTypes(ctx: FrameContext): fc.Arbitrary<Frame> {
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
