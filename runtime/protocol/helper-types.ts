/** Type helpers of the runtime's own API; not protocol shapes (those are derived in builtin-types.ts). */

/** A value, or a promise of it: what handlers may return. */
export type Awaitable<T> = T | Promise<T>;

/** Whether a handler's outcome is to be waited for (a promise, or any thenable) rather than used as it is. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };
