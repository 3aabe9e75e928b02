/**
 * Skill file content on both sides: bytes from text or Base64, SHA-256 digests in the page's `sha256:{hex}` form,
 * and the MIME type a file is served with. Web APIs only (edge runtimes).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base64FromBytes, bytesFromBase64 } from "../transport/base64.ts";

export function bytesOf(content: Uint8Array | string): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

/** `sha256:` and 64 lowercase hex of `bytes`. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

/** The text of bytes that are UTF-8 (a BOM kept, so the text encodes back to the same bytes), else undefined. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A `resources/read` content item of the file: `text` when it is UTF-8, else `blob`. */
export function contentItem(uri: string, bytes: Uint8Array, mimeType: string): Record<string, unknown> {
  const text = utf8Text(bytes);
  return text === undefined ? { uri, mimeType, blob: base64FromBytes(bytes) } : { uri, mimeType, text };
}

/** The raw bytes of a `resources/read` content item, or undefined when it has neither `text` nor valid `blob`. */
export function itemBytes(item: Readonly<Record<string, unknown>>): Uint8Array | undefined {
  if (typeof item["text"] === "string") return new TextEncoder().encode(item["text"]);
  if (typeof item["blob"] === "string") return bytesFromBase64(item["blob"]);
  return undefined;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
};

/** The MIME type of a file by its extension (text/plain for unknown text, application/octet-stream otherwise). */
export function mimeTypeOf(path: string, bytes?: Uint8Array): string {
  const dot = path.lastIndexOf(".");
  const known = dot > path.lastIndexOf("/") ? MIME_TYPES[path.slice(dot + 1).toLowerCase()] : undefined;
  if (known) return known;
  return bytes !== undefined && utf8Text(bytes) === undefined ? "application/octet-stream" : "text/plain";
}
