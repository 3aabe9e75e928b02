/**
 * The session records of `RedisStateStore` (`sessions`): a hash per session with a sliding TTL, its subscribed URIs
 * (a set, and each URI's set of sessions), and the index of live sessions (a sorted set scored by expiry). A session's
 * keys share its hash tag (`{sid}`); the index does not.
 */
import type { createClient } from "redis";
import type { SessionRecord, SessionStore } from "./shared-state.ts";

type Client = ReturnType<typeof createClient>;

/** Only update fields of a session that still exists (HSET alone would bring a deleted one back without a TTL). */
const UPDATE_IF_EXISTS = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV)) return 1`;

/**
 * `resources/subscribe`: the URI joins the session's set (KEYS[1]) and the session the URI's (KEYS[2]), unless the
 * session already holds ARGV[4] other URIs (0, nothing changed). ARGV: uri, session id, TTL in ms, the cap.
 */
const SUBSCRIBE = `if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 and redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[4])
then return 0 end
redis.call('SADD', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[2]) redis.call('PEXPIRE', KEYS[2], ARGV[3]) return 1`;

/**
 * A session is deleted: its record, its set of URIs and its index entry go, and it leaves the set of each URI it
 * held (ARGV[1]: the prefix of those keys, ARGV[2]: the session id), so no per-URI set outlives it.
 */
const DELETE_SESSION = `for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do
redis.call('SREM', ARGV[1] .. uri, ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2]) redis.call('ZREM', KEYS[3], ARGV[2]) return 1`;

export interface SessionKeys {
  readonly prefix: string;
  /** A session unused this long is gone. */
  readonly ttlMs: number;
}

export function redisSessions(
  c: () => Client,
  /** Runs commands; maps failures to `StoreUnavailableError`. */
  run: <T>(work: () => Promise<T>) => Promise<T>,
  { prefix, ttlMs: ttl }: SessionKeys,
): SessionStore {
  const sessionKey = (id: string) => `${prefix}{${id}}:s`;
  const subsKey = (id: string) => `${prefix}{${id}}:subs`;
  /** The sessions subscribed to `uri`. */
  const subscribersKey = (uri: string) => `${prefix}sub:${uri}`;
  const indexKey = `${prefix}sessions`;
  return {
    create: (id, record) =>
      run(async () => {
        const fields: Record<string, string> = { init: JSON.stringify(record.initialize) };
        if (record.principal !== undefined) fields["principal"] = record.principal;
        await c()
          .multi()
          .hSet(sessionKey(id), fields)
          .pExpire(sessionKey(id), ttl)
          .zAdd(indexKey, { score: Date.now() + ttl, value: id })
          .exec();
      }),
    get: (id) =>
      run(async () => {
        const key = sessionKey(id);
        const [fields] = (await c()
          .multi()
          .hGetAll(key)
          .pExpire(key, ttl)
          .pExpire(subsKey(id), ttl)
          .zAdd(indexKey, { score: Date.now() + ttl, value: id }, { XX: true })
          .exec()) as unknown as [Record<string, string>];
        return recordOf(fields);
      }),
    update: (id, patch) =>
      run(async () => {
        const args: string[] = [];
        if (patch.initialized !== undefined) args.push("initialized", patch.initialized ? "1" : "");
        if (patch.logLevel !== undefined) args.push("level", patch.logLevel);
        if (args.length > 0) await c().eval(UPDATE_IF_EXISTS, { keys: [sessionKey(id)], arguments: args });
      }),
    subscribe: (id, uri, on, limit) =>
      run(async () => {
        const keys = [subsKey(id), subscribersKey(uri)];
        if (on) return (await c().eval(SUBSCRIBE, { keys, arguments: [uri, id, String(ttl), String(limit)] })) === 1;
        await c().multi().sRem(keys[0]!, uri).sRem(keys[1]!, id).exec();
        return true;
      }),
    audience: (uri) =>
      run(async () => {
        if (uri !== undefined) return c().sMembers(subscribersKey(uri));
        const [, live] = (await c()
          .multi()
          .zRemRangeByScore(indexKey, "-inf", Date.now())
          .zRange(indexKey, 0, -1)
          .exec()) as unknown as [number, string[]];
        return live;
      }),
    delete: (id) =>
      run(async () => {
        const keys = [sessionKey(id), subsKey(id), indexKey];
        await c().eval(DELETE_SESSION, { keys, arguments: [subscribersKey(""), id] });
      }),
  };
}

function recordOf(fields: Record<string, string> | undefined): SessionRecord | undefined {
  if (!fields || fields["init"] === undefined) return undefined;
  return {
    initialize: JSON.parse(fields["init"]) as Record<string, unknown>,
    principal: fields["principal"],
    initialized: fields["initialized"] === "1",
    logLevel: fields["level"],
  };
}
