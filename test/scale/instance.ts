/**
 * One instance of a shared deployment (issue 24), run as its own process by test/scale/cluster.ts: an McpServer
 * served over HTTP with its state on Redis (`REDIS_URL`), named `INSTANCE_ID`. Prints its URL on stdout.
 * Tools: echo, whoami (the instance), ask (elicitation round trip), slow (progress until cancelled), add_tool (a
 * list change raised here), touch (resources/updated of `test://doc`), log (a log message at info), pause (progress,
 * then the answer after `ms`). Resources: `test://doc`, the template `test://items/{id}`; `MAX_SUBSCRIPTIONS` sets
 * `maxSubscriptionsPerSession`. It serves the
 * Tasks extension with its tasks on the same Redis; task tools: task_work (answers after `ms` naming the instance it
 * ran on), task_wait (reports progress, then runs until cancelled, printing `scale-task-cancelled <instance>`),
 * task_ask (an elicitation inside the task).
 */
import { builtinRevisions, McpServer } from "@mcp-gen/runtime";
import { serve } from "@mcp-gen/runtime/http";
import { redisStore } from "@mcp-gen/runtime/redis";
import { tasks, taskTool } from "@mcp-gen/runtime/tasks";

const instanceId = process.env["INSTANCE_ID"] ?? "solo";
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const object = { type: "object" } as const;

/** An error and its causes on one stderr line: what `onError` was told (test/scale/store-errors.test.ts reads it). */
const described = (error: unknown): string => {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 5; e = (e as { cause?: unknown }).cause)
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  return parts.join(" <- ").replaceAll("\n", " ");
};
const reporter = (kind: string) => (error: unknown) => process.stderr.write(`${kind} ${described(error)}\n`);

const store = redisStore({ url: process.env["REDIS_URL"]!, instanceId, onError: reporter("scale-store-error") });
const server = new McpServer({
  info: { name: "scale-fixture", version: "1.0.0" },
  revisions: builtinRevisions,
  requestStateKey: "a secret every instance shares",
  extensions: [tasks({ store: store.tasks, pollIntervalMs: 100 })],
  ...(process.env["MAX_SUBSCRIPTIONS"] ? { maxSubscriptionsPerSession: Number(process.env["MAX_SUBSCRIPTIONS"]) } : {}),
});
const asTask = { extensions: taskTool({ support: "optional" }) };
server
  .tool(
    { name: "task_work", inputSchema: object },
    async (args) => {
      await new Promise((resolve) => setTimeout(resolve, Number((args as { ms?: unknown }).ms ?? 0)));
      return text(`done on ${instanceId}`);
    },
    asTask,
  )
  .tool(
    { name: "task_wait", inputSchema: object },
    async (_args, ctx) => {
      await ctx.reportProgress(1, 2, `started on ${instanceId}`);
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      process.stderr.write(`scale-task-cancelled ${instanceId}\n`);
      return text("stopped");
    },
    asTask,
  )
  .tool(
    { name: "task_ask", inputSchema: object },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      return text(`${instanceId} heard ${JSON.stringify(answer.content ?? null)}`);
    },
    asTask,
  );
server
  .tool({ name: "echo", inputSchema: object }, (args) => text(String((args as { text?: unknown }).text)))
  .tool({ name: "whoami", inputSchema: object }, () => text(instanceId))
  .tool({ name: "ask", inputSchema: object }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return text(`${instanceId} heard ${JSON.stringify(answer.content ?? null)}`);
  })
  .tool({ name: "slow", inputSchema: object }, async (_args, ctx) => {
    for (let i = 1; !ctx.signal.aborted; i++) {
      await ctx.reportProgress(i);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (i > 400) return text("not cancelled");
    }
    process.stderr.write(`scale-cancelled ${instanceId}\n`);
    return text("cancelled");
  })
  .tool({ name: "add_tool", inputSchema: object }, (args) => {
    const name = String((args as { name?: unknown }).name);
    server.tool({ name, inputSchema: object }, () => text(name));
    return text(`added ${name} on ${instanceId}`);
  })
  .tool({ name: "touch", inputSchema: object }, () => {
    server.notifyResourceUpdated("test://doc");
    return text("touched");
  })
  .tool({ name: "pause", inputSchema: object }, async (args, ctx) => {
    process.stderr.write(`scale-pause-start ${instanceId} ${Number((args as { ms?: unknown }).ms ?? 300)}\n`);
    await ctx.reportProgress(1);
    await new Promise((resolve) => setTimeout(resolve, Number((args as { ms?: unknown }).ms ?? 300)));
    return text(`paused on ${instanceId}`);
  })
  .tool({ name: "log", inputSchema: object }, async (_args, ctx) => {
    await ctx.log.info("hello from " + instanceId);
    return text("logged");
  })
  .resource({ uri: "test://doc", name: "doc" }, () => ({ contents: [{ uri: "test://doc", text: "doc" }] }))
  .resourceTemplate({ uriTemplate: "test://items/{id}", name: "item" }, (uri) => ({
    contents: [{ uri, text: "item" }],
  }));

const running = await serve(server, {
  store,
  health: true,
  maxConnectionsPerAddress: 0,
  maxSessionsPerClient: 10_000,
  onError: reporter("scale-onerror"),
  ...(process.env["POLL_AFTER_MS"] ? { pollAfterMs: Number(process.env["POLL_AFTER_MS"]) } : {}),
});
process.stdout.write(`${running.url}\n`);
// The graceful shutdown of docs/scaling.md: readiness 503 first, then drain, then the store closes.
const drainMs = Number(process.env["DRAIN_MS"] ?? 10_000);
const unreadyMs = Number(process.env["UNREADY_MS"] ?? 0);
process.once("SIGTERM", () => {
  running.close({ drainMs, unreadyMs }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
