/**
 * `mcp.lock.json`: the pinned contracts of the servers one `mcp-gen import --config` read, beside their manifests.
 * Paths in it are relative to the lock's folder, `/`-separated. `check --live` reads it; `import --config` and
 * `check --live --update` write it (sorted keys, so a change shows as a small diff in review).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { stableJson } from "../emit/generated-file.ts";
import { CANONICAL_FORM, KINDS, nameRecord, type NameRecord, type ServerPins } from "./contract.ts";

export const LOCK_FILE = "mcp.lock.json";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A record keyed by served names (or config names): checked with zod's record, which would drop a `__proto__` key,
 * then copied from the parsed JSON into a record without a prototype, every own key kept.
 */
function namedRecord<T extends z.ZodType>(value: T) {
  const checked = z.record(z.string(), value);
  return z.custom<NameRecord<z.infer<T>>>().transform((raw, ctx) => {
    const result = checked.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: "custom", input: raw });
      return z.NEVER;
    }
    const out = nameRecord<z.infer<T>>();
    if (!isPlainObject(raw)) return out;
    for (const key of Object.keys(raw)) {
      const one = value.safeParse(raw[key]);
      if (!one.success) {
        ctx.addIssue({ code: "custom", message: one.error.issues[0]!.message, path: [key], input: raw[key] });
        return z.NEVER;
      }
      Object.defineProperty(out, key, { value: one.data, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
}

const hashMap = namedRecord(z.string().regex(/^sha256:[0-9a-f]{64}$/));
/** Served fields the manifest does not keep, per name: JSON objects, as served. */
const unkeptMap = namedRecord(z.custom<Record<string, unknown>>(isPlainObject, "expected an object"));

/**
 * The one shape of a server's manifest path that `import --config` writes: `<folder>/mcp.yaml` directly under the
 * lock's folder, the folder lower case letters, digits, `.`, `_`, `-`, starting with neither `.` nor `-` (so no `..`,
 * no absolute path, no separator): a lock edited in a pull request cannot make `import` or `check --live --update`
 * write outside the lock's folder.
 */
export const MANIFEST_PATH = /^[a-z0-9_][a-z0-9._-]*\/mcp\.yaml$/;

const lockedServer = z.strictObject({
  /** The server's manifest, relative to the lock. */
  manifest: z
    .string()
    .regex(MANIFEST_PATH, "must be <folder>/mcp.yaml as import --config writes it (folder: a-z 0-9 . _ -)"),
  server: z.strictObject({ name: z.string(), version: z.string() }),
  protocolRevision: z.string(),
  instructions: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .optional(),
  tools: hashMap,
  resources: hashMap,
  resourceTemplates: hashMap,
  prompts: hashMap,
  unkept: z.strictObject(Object.fromEntries(KINDS.map((k) => [k.list, unkeptMap.optional()]))).optional(),
});

const lockSchema = z.strictObject({
  lockfileVersion: z.literal(1),
  generator: z.literal("mcp-gen"),
  canonicalForm: z.string(),
  /** The host config the servers were read from, relative to the lock. */
  config: z.string(),
  servers: namedRecord(lockedServer),
});

export type LockedServer = ServerPins & { readonly manifest: string };
export type Lock = Omit<z.infer<typeof lockSchema>, "servers"> & { readonly servers: Record<string, LockedServer> };

export function newLock(config: string): Lock {
  return { lockfileVersion: 1, generator: "mcp-gen", canonicalForm: CANONICAL_FORM, config, servers: nameRecord() };
}

export function lockText(lock: Lock): string {
  return stableJson(lock);
}

/** Reads and checks a lock; throws an Error naming the file and the first problem. */
export async function readLock(file: string): Promise<Lock> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return parseLock(text, file);
}

/** Checks the text of a lock (`file` names it in errors); throws an Error naming the first problem. */
export function parseLock(text: string, file: string): Lock {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const parsed = lockSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file} is not an mcp-gen lock: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  return parsed.data as Lock;
}

/** `target` relative to the lock's folder, `/`-separated. */
export function relativeToLock(lockFile: string, target: string): string {
  return path
    .relative(path.dirname(path.resolve(lockFile)), path.resolve(target))
    .split(path.sep)
    .join("/");
}
