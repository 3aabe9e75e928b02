/** Cursor-based pagination of list results (server/utilities/pagination.mdx). Cursors are opaque to clients. */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { base64urlFromBytes, bytesFromBase64url } from "../transport/base64.ts";

export function paginate<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    offset = decodeCursor(cursor);
    if (offset > items.length) throw invalidCursor();
  }
  if (pageSize <= 0) return { page: items.slice(offset) };
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(end) } : { page };
}

function encodeCursor(offset: number): string {
  return base64urlFromBytes(new TextEncoder().encode(`o:${offset}`));
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== "string") throw invalidCursor();
  const bytes = bytesFromBase64url(cursor);
  if (!bytes) throw invalidCursor();
  const text = new TextDecoder().decode(bytes);
  const match = /^o:(\d{1,9})$/.exec(text);
  if (!match) throw invalidCursor();
  return Number(match[1]);
}

function invalidCursor(): RpcError {
  return new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown or expired cursor");
}
