/** Token and registration stores: in memory, and a JSON file (owner-only permissions, atomic replace). */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { OAuthStore, StoredValue } from "./types.ts";

export function memoryStore(): OAuthStore {
  const map = new Map<string, StoredValue>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, structuredClone(value)),
    delete: (key) => void map.delete(key),
  };
}

/**
 * A store persisted as one JSON file (mode 0600: it holds refresh tokens and client secrets). Writes are
 * serialized and atomic (temporary file + rename), so a crash never leaves a half-written file.
 */
export function fileStore(path: string): OAuthStore {
  let cache: Record<string, StoredValue> | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  async function load(): Promise<Record<string, StoredValue>> {
    if (cache) return cache;
    try {
      const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
      cache =
        typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, StoredValue>)
          : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
      cache = {}; // missing or unreadable JSON: start empty (the next write replaces it)
    }
    return cache;
  }

  function update(change: (data: Record<string, StoredValue>) => void): Promise<void> {
    const run = chain.then(async () => {
      const data = await load();
      change(data);
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, JSON.stringify(data, null, 2), { mode: 0o600 });
      await chmod(temp, 0o600);
      await rename(temp, path);
    });
    chain = run.catch(() => undefined);
    return run;
  }

  return {
    get: async (key) => {
      await chain;
      const data = await load();
      return Object.hasOwn(data, key) ? data[key] : undefined;
    },
    set: (key, value) => update((data) => void (data[key] = structuredClone(value))),
    delete: (key) => update((data) => void delete data[key]),
  };
}
