# Sourced by user-flow.sh (once, in the first project, after the Quick start and its checks): the Tasks extension and
# the Redis store as a user meets them, from the installed tarballs with default options.
#   a `task: optional` tool added to init's mcp.yaml → generate, build (tsc; the client file asserts with
#   @ts-expect-error that `greet`, task: forbidden by default, has no task form) → init's own HTTP server (npm run
#   start:http), the generated client's `tasks.count()` → a task id and the typed result → `npm i redis` (the
#   optional peer, pinned to the repository's lock) → a redis-server on a free loopback port, two server processes
#   with `redisStore({ url })`: the task is created through one and fetched (`resumeTask`: tasks/get) through the
#   other, whose answer names the instance that ran the handler.
# Uses from user-flow.sh: WORK, APP, step, fail, pinned, start_http, stop_servers, URL, SERVER_PIDS.

tasks_and_redis() {
  cd "$APP"
  step "[Tasks] a task: optional tool in mcp.yaml, generate, build (greet, task: forbidden, has no task form)"
  local tool
  tool="$(
    cat <<'YAML'
  - name: count
    description: Counts to a number, one step at a time; may run as a task.
    task: optional
    inputSchema:
      type: object
      properties:
        to: { type: integer, minimum: 1 }
        stepMs: { type: integer, minimum: 0 }
      required: [to]
    outputSchema:
      type: object
      properties:
        total: { type: integer }
        ranOn: { type: string }
      required: [total, ranOn]
YAML
  )"
  grep -q '^generate:$' mcp.yaml || fail "init's mcp.yaml has no top-level generate: to add the tool before"
  TOOL="$tool" awk '/^generate:$/ { print ENVIRON["TOOL"] } { print }' mcp.yaml >mcp.yaml.new && mv mcp.yaml.new mcp.yaml
  cat >src/handlers.ts <<'TS'
import type { ServerHandlers } from "./generated/index.js";

export const handlers: ServerHandlers = {
  tools: {
    greet: ({ name }) => ({ structuredContent: { greeting: `Hello, ${name}!` } }),
    count: async ({ to, stepMs = 50 }, context) => {
      for (let n = 1; n <= to; n++) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        await context.reportProgress(n, to, `${n} of ${to}`);
      }
      return { structuredContent: { total: to, ranOn: process.env["INSTANCE"] ?? "one" } };
    },
  },
};
TS
  cat >src/http-redis.ts <<'TS'
/** The server over Streamable HTTP with its state (sessions, streams, tasks) in the Redis at $REDIS_URL. */
import { serve } from "@mcp-gen/runtime/http";
import { redisStore } from "@mcp-gen/runtime/redis";
import { createServer } from "./generated/index.js";
import { handlers } from "./handlers.js";

const url = process.env["REDIS_URL"];
if (!url) throw new Error("REDIS_URL is not set");
const store = redisStore({ url });
const server = createServer(handlers, { tasks: { store: store.tasks } });
const running = await serve(server, { store, port: Number(process.env["PORT"] ?? 3000) });
console.log(running.url);
TS
  cat >src/tasks-client.ts <<'TS'
/**
 * Calls `count` as a task with the generated client: `node dist/tasks-client.js <url> [<url of another instance>]`;
 * with a second URL the task is also fetched there (resumeTask). EXPECT_RAN_ON: the instance that must run it.
 */
import { builtinRevisions, McpClient } from "@mcp-gen/runtime";
import { StreamableHttpClientTransport } from "@mcp-gen/runtime/http";
import { resumeTask, tasksClient } from "@mcp-gen/runtime/tasks";
import { methods } from "@mcp-gen/runtime/protocol/2026-07-28";
import { CountOutputSchema, createClient } from "./generated/index.js";

function check(ok: boolean, what: string): asserts ok {
  if (ok) return;
  console.error(`tasks-client: FAILED: ${what}`);
  process.exit(1);
}

async function connect(url: string): Promise<McpClient> {
  const client = new McpClient({
    info: { name: "user-flow-tasks", version: "1.0.0" },
    revisions: builtinRevisions,
    extensions: [tasksClient()],
  });
  await client.connect(new StreamableHttpClientTransport(new URL(url)));
  return client;
}

const [url, otherUrl] = process.argv.slice(2);
if (!url) throw new Error("usage: tasks-client.js <url> [<url of another instance>]");
const expectedRanOn = process.env["EXPECT_RAN_ON"] ?? "one";
const raw = await connect(url);
const client = createClient(raw);
// @ts-expect-error greet has task: forbidden (the default), so the client has no task form of it
void client.tasks.greet;
const handle = await client.tasks.count({ to: 4, stepMs: 250 });
const taskId = handle.taskId;
check(taskId !== undefined, "tasks.count() created a task (the server answered at once)");
let fetched = "";
if (otherUrl) {
  const other = await connect(otherUrl);
  const resumed = await resumeTask(other, methods["tools/call"], taskId);
  const status = await resumed.status();
  check(status === "working" || status === "completed", `tasks/get on the other instance: ${status}`);
  const parsed = CountOutputSchema.safeParse((await resumed.result()).structuredContent);
  check(parsed.success, `the other instance's result is count's output: ${JSON.stringify(parsed)}`);
  const { total, ranOn } = parsed.data;
  check(total === 4 && ranOn === expectedRanOn, `the other instance's result: ${total} on ${ranOn}`);
  fetched = `, fetched through ${otherUrl} (${status}, then ${total} on ${ranOn})`;
  await other.close();
}
const { structuredContent } = await handle.result();
const total: number = structuredContent.total; // typed CountOutput
check(total === 4 && structuredContent.ranOn === expectedRanOn, `result ${JSON.stringify(structuredContent)}`);
console.log(`tasks-client: task ${taskId} → ${total} on ${structuredContent.ranOn}${fetched}`);
await raw.close();
TS
  npx mcp-gen generate
  grep -q 'count: "optional"' src/generated/server.ts || fail "the generated server does not make count a task tool"
  npm run --silent build || fail "the project with a task tool does not build"

  step "[Tasks] init's HTTP server (npm run start:http), the generated client's tasks.count()"
  start_http http npm run start:http
  node dist/tasks-client.js "$URL" || fail "the task through init's HTTP server"
  stop_servers

  step "[Redis] npm i redis@$(pinned redis) (the optional peer), a redis-server, two instances on redisStore({ url })"
  command -v redis-server >/dev/null || fail "redis-server is not installed (apt-get install redis-server)"
  npm i "redis@$(pinned redis)" >/dev/null || fail "npm i redis failed"
  [ -d node_modules/redis ] && [ ! -L node_modules/redis ] || fail "redis is not installed in the project"
  local port
  port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
  setsid redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no >"$WORK/redis.log" 2>&1 &
  SERVER_PIDS+=("$!")
  for _ in $(seq 1 100); do
    grep -q 'Ready to accept connections' "$WORK/redis.log" && break
    sleep 0.1
  done
  grep -q 'Ready to accept connections' "$WORK/redis.log" || fail "redis-server did not start: $(cat "$WORK/redis.log")"
  export REDIS_URL="redis://127.0.0.1:$port"
  INSTANCE=a start_http redis-a node dist/http-redis.js
  local url_a="$URL"
  INSTANCE=b start_http redis-b node dist/http-redis.js
  local url_b="$URL"
  EXPECT_RAN_ON=a node dist/tasks-client.js "$url_a" "$url_b" ||
    fail "a task created through instance a and fetched through instance b (logs: $(cat "$WORK"/redis-*.log))"
  unset REDIS_URL
  stop_servers
}
