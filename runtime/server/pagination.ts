/** Cursor-based pagination of list results (server/utilities/pagination.mdx). Cursors are opaque to clients. */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";

export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
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
  return Buffer.from(`o:${offset}`).toString("base64url");
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== "string") throw invalidCursor();
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^o:(\d{1,9})$/.exec(text);
  if (!match) throw invalidCursor();
  return Number(match[1]);
}

function invalidCursor(): RpcError {
  return new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown or expired cursor");
}
