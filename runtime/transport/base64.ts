/**
 * Base64 with web APIs only (`btoa`/`atob`, no `Buffer`), so code on the web-standard HTTP path runs on Workers,
 * Deno and Bun as it does on Node. Lives in `transport/` so every layer above (HTTP, auth, server) may use it.
 */

/** Standard Base64 (with padding) of `bytes`. */
export function base64FromBytes(bytes: Uint8Array): string {
  let binary = "";
  // Chunked: `String.fromCharCode(...bytes)` overflows the argument limit on large inputs.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 §5), as used for ids and digests. */
export function base64urlFromBytes(bytes: Uint8Array): string {
  return base64FromBytes(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of standard Base64 text, or undefined when it is not valid Base64. */
export function bytesFromBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The bytes of Base64url text (padding optional), or undefined when it is not valid Base64url. */
export function bytesFromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return undefined;
  const unpadded = text.replace(/=+$/, "");
  const bytes = bytesFromBase64(
    unpadded.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (unpadded.length % 4)) % 4),
  );
  return bytes && new Uint8Array(bytes);
}
