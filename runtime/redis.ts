/**
 * `@mcp-gen/runtime/redis`: the state several instances of one server share, on Redis or Valkey (issue 24). It needs
 * the optional peer dependency `redis` (node-redis); nothing else in the runtime loads it. The interfaces and the
 * in-memory store are on `@mcp-gen/runtime/http`.
 *
 *     serve(server, { store: redisStore({ url: "redis://127.0.0.1:6379" }) })
 */
export { redisStore, RedisStateStore, type RedisStoreOptions } from "./http/server/redis-store.ts";
export { RedisRefusedError, RedisTopologyError } from "./http/server/redis-check.ts";
