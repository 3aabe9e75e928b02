/**
 * Whether Redis would run the store's commands now, asked without running any (readiness, and each new connection).
 * Redis decides whether it refuses a command before it queues it in a transaction: an ACL denial (NOPERM, for the
 * command, a key or a channel), a full Redis under `noeviction` (OOM), a Cluster node (CROSSSLOT, MOVED, CLUSTERDOWN),
 * a replica (READONLY). So the check sends MULTI, one command of each kind the store sends (directly or inside its
 * scripts) on probe keys of this instance, then DISCARD: one round trip, nothing executed. A refusal names the command
 * and carries Redis's reply as its cause. A Cluster refusal is `RedisTopologyError`: it will not pass by itself.
 */
import { ErrorReply, type createClient } from "redis";

type Client = ReturnType<typeof createClient>;

/** Redis refuses a command the store needs (its reply is the cause): the store cannot serve until that changes. */
export class RedisRefusedError extends Error {
  constructor(
    readonly command: string,
    reply: unknown,
  ) {
    super(`Redis refuses ${command}, which the state store needs: ${messageOf(reply)}`, { cause: reply });
    this.name = "RedisRefusedError";
  }
}

/**
 * The store was pointed at a Redis it cannot work with: a Redis Cluster node (its keys span hash slots: the session
 * index and each session's keys, a task and its owner's list), or something that is not a Redis data server (a
 * Sentinel answers `unknown command`). Thrown by `ready()` at start-up and on every request until the store is
 * pointed elsewhere; `serve()` fails with it.
 */
export class RedisTopologyError extends Error {
  constructor(reply: unknown) {
    super(
      `redisStore: ${topologyOf(messageOf(reply))} (${messageOf(reply)}). It needs one Redis (or Valkey) primary, ` +
        "optionally with replicas behind it: Redis Cluster and Sentinel are not supported (docs/scaling.md)",
      { cause: reply },
    );
    this.name = "RedisTopologyError";
  }
}

const CLUSTER_REPLY = /^(CROSSSLOT|MOVED|ASK|CLUSTERDOWN|TRYAGAIN)\b/;
const NOT_A_DATA_SERVER = /^ERR unknown command/;

function topologyOf(message: string): string {
  return CLUSTER_REPLY.test(message)
    ? "the server is a Redis Cluster node"
    : "the server is not a Redis data server (a Sentinel?)";
}

function messageOf(reply: unknown): string {
  return reply instanceof Error ? reply.message : String(reply);
}

export interface CheckKeys {
  /** Prefix of every key (`keyPrefix`). */
  readonly prefix: string;
  readonly instanceId: string;
  /** The pub/sub channels the store publishes on (their ACL, `&pattern`, is checked too). */
  readonly channels: readonly string[];
}

/** Each command the store sends, directly or in a script, with arguments of the shape it uses, on probe keys. */
function probeCommands({ prefix, instanceId, channels }: CheckKeys): string[][] {
  const key = (kind: string) => `${prefix}{probe:${instanceId}}:${kind}`;
  const [hash, set, zset, stream, text, list] = ["s", "subs", "z", "ev:g", "str", "inbox"].map(key) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return [
    // A session's keys and the session index are in different hash slots, as in the store's transactions.
    ["EXISTS", hash, `${prefix}sessions`],
    ["HSET", hash, "f", "v"],
    ["HGETALL", hash],
    ["PEXPIRE", hash, "1000"],
    ["PEXPIREAT", hash, "1"],
    ["PTTL", hash],
    ["PERSIST", hash],
    ["SADD", set, "v"],
    ["SREM", set, "v"],
    ["SCARD", set],
    ["SISMEMBER", set, "v"],
    ["SMEMBERS", set],
    ["ZADD", zset, "0", "v"],
    ["ZREM", zset, "v"],
    ["ZCARD", zset],
    ["ZRANGE", zset, "0", "-1"],
    ["ZREVRANGE", zset, "0", "-1"],
    ["ZREMRANGEBYSCORE", zset, "-inf", "0"],
    ["XADD", stream, "MAXLEN", "~", "1", "*", "m", ""],
    ["XRANGE", stream, "-", "+", "COUNT", "1"],
    ["SET", text, "1", "PX", "1000"],
    ["GET", text],
    ["RPUSH", list, "v"],
    ["LLEN", list],
    ["LPOP", list, "1"],
    ["EVAL", "return 1", "1", hash],
    ...channels.map((channel) => ["PUBLISH", channel, ""]),
    ["DEL", hash, set, zset, stream, text, list],
  ];
}

/**
 * Resolves when Redis would run every command of the store now; else throws `RedisRefusedError` for the first it
 * refuses (or `RedisTopologyError`). Errors of the connection itself are thrown as they are.
 */
export async function checkCommands(client: Client, keys: CheckKeys): Promise<void> {
  // One chain: node-redis writes it contiguously, so no other command of this connection lands inside the MULTI.
  const chainId = Symbol("readiness check");
  const send = (args: readonly string[]) => client.sendCommand(args, { chainId });
  const commands = probeCommands(keys);
  const replies = await Promise.allSettled([
    send(["MULTI"]),
    ...commands.map(send),
    // Should MULTI itself be refused, the commands ran: the DEL above removed what they wrote.
    send(["DISCARD"]),
  ]);
  const multi = replies[0]!;
  if (multi.status === "rejected") throw refusal("MULTI", multi.reason);
  for (const [i, args] of commands.entries()) {
    const reply = replies[i + 1]!;
    if (reply.status === "rejected") throw refusal(args[0]!, reply.reason);
  }
}

/** A store command failed because the server is a Cluster node (MOVED, CROSSSLOT, ...): that, else undefined. */
export function topologyRefusal(error: unknown): RedisTopologyError | undefined {
  return error instanceof Error && CLUSTER_REPLY.test(error.message) ? new RedisTopologyError(error) : undefined;
}

function refusal(command: string, reason: unknown): Error {
  if (!(reason instanceof ErrorReply)) return reason instanceof Error ? reason : new Error(String(reason));
  // A reply from Redis (`OOM …`, `NOPERM …`), not a failure of the connection.
  if (CLUSTER_REPLY.test(reason.message) || NOT_A_DATA_SERVER.test(reason.message))
    return new RedisTopologyError(reason);
  return new RedisRefusedError(command, reason);
}
