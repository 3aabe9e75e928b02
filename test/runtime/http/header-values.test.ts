/**
 * `Mcp-Name`/`Mcp-Param-*` header values (2026-07-28 transports): plain safe ASCII as is, anything else as
 * `=?base64?…?=` of its UTF-8 bytes. The encoding runs on web APIs (btoa/atob, TextEncoder/TextDecoder); Node's
 * Buffer is the independent oracle here.
 */
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue } from "../../../runtime/http/mcp-headers.ts";

const sentinel = (bytes: Buffer) => `=?base64?${bytes.toString("base64")}?=`;

describe("header values", () => {
  it("encodes non-ASCII, padded and look-alike values as Base64 of their UTF-8 bytes", () => {
    for (const value of ["Zürich", "東京", "emoji 🚀", " padded", "tab\t", "=?base64?abc?="]) {
      expect(encodeHeaderValue(value)).toBe(sentinel(Buffer.from(value, "utf8")));
      expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
    }
    expect(encodeHeaderValue("plain value")).toBe("plain value");
  });

  it("decodes every Base64 length (0, 1 and 2 padding characters)", () => {
    for (const value of ["", "a", "ab", "abc", "abcd"])
      expect(decodeHeaderValue(sentinel(Buffer.from(value)))).toBe(value);
  });

  it("refuses bytes that are not UTF-8, bad Base64 and unsafe plain text", () => {
    expect(decodeHeaderValue(sentinel(Buffer.from([0xff, 0xfe, 0x41])))).toBeUndefined();
    expect(decodeHeaderValue(sentinel(Buffer.from([0xe6, 0x9d])))).toBeUndefined(); // a character cut short
    expect(decodeHeaderValue("=?base64?abc?=")).toBeUndefined(); // length not a multiple of 4
    expect(decodeHeaderValue("=?base64?a*cd?=")).toBeUndefined();
    expect(decodeHeaderValue("caf\u00e9")).toBeUndefined();
  });
});
