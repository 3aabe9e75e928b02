/** Following `nextCursor` through every page of a list (server/utilities/pagination.mdx). */
import { ProtocolUsageError } from "../jsonrpc/errors.ts";

export async function collectPages<R extends { readonly nextCursor?: string }, T>(
  page: (params: { readonly cursor?: string }) => Promise<R>,
  items: (result: R) => readonly T[],
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const result = await page(cursor === undefined ? {} : { cursor });
    all.push(...items(result));
    cursor = result.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new ProtocolUsageError(`pagination loop: the server repeated cursor ${cursor}`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return all;
}
