/**
 * One instance of a server run as several behind a load balancer (docs/scaling.md): its
 * sessions, resumable streams and notifications live on Redis, so any instance serves any request.
 * Environment: REDIS_URL, INSTANCE_ID (unique per instance), PORT, REQUEST_STATE_KEY (the same on every instance).
 */
import { builtinRevisions, McpServer } from "@mcp-gen/runtime";
import { serve } from "@mcp-gen/runtime/http";
import { redisStore } from "@mcp-gen/runtime/redis";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const instanceId = env("INSTANCE_ID");

const server = new McpServer({
  info: { name: "scale-example", version: "1.0.0" },
  revisions: builtinRevisions,
  // 2026-07-28 multi round-trip requests: a retry may land on another instance, which must verify the state.
  requestStateKey: env("REQUEST_STATE_KEY"),
}).tool({ name: "whoami", inputSchema: { type: "object" } }, () => ({
  content: [{ type: "text", text: `served by ${instanceId}` }],
}));

const store = redisStore({ url: env("REDIS_URL"), instanceId, onError: (e) => console.error("redis:", String(e)) });
const running = await serve(server, {
  store,
  port: Number(process.env["PORT"] ?? 3000),
  hostname: "0.0.0.0",
  allowedHosts: ["localhost", "127.0.0.1", "mcp.example.com"],
  // Every client reaches us from the load balancer's address: limit per client there instead.
  maxSessionsPerClient: 100_000,
  maxConnectionsPerAddress: 0,
  health: true, // GET /health, GET /ready for the balancer's checks
});
console.log(`${instanceId} serving ${running.url}`);
// A rolling restart keeps every call (docs/scaling.md): readiness 503 first, calls in flight get 10 s, then the
// store closes.
process.once("SIGTERM", () => void running.close({ unreadyMs: 2_000, drainMs: 10_000 }).then(() => process.exit(0)));
