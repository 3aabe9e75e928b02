/** Type helpers of the runtime's own API; not protocol shapes (those are derived in builtin-types.ts). */

/** A value, or a promise of it: what handlers may return. */
export type Awaitable<T> = T | Promise<T>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };
