/**
 * The tasks example's handlers. `build_report` and `run_batch` may run as tasks (manifest `task`): there
 * `context.reportProgress` becomes the task's `statusMessage`, `context.elicit` reaches the client through the task
 * (`input_required`, answered by `tasks/update`) and `context.signal` aborts when the task is cancelled or expires.
 */
import type { RequestContext } from "@mcp-gen/runtime";
import type { ServerHandlers } from "./generated/index.ts";

/** Resolves after `ms`, or rejects when `signal` aborts (a cancelled task stops at its next step). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

async function confirm(context: RequestContext, days: number): Promise<string | undefined> {
  const answer = await context.elicit({
    message: `Build a report over ${days} days?`,
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  return answer.action === "accept" ? String(answer.content?.["name"]) : undefined;
}

export const handlers: ServerHandlers = {
  tools: {
    async build_report({ days, stepMs = 10 }, context) {
      const confirmedBy = days > 7 ? await confirm(context, days) : undefined;
      if (days > 7 && confirmedBy === undefined)
        return { isError: true, content: [{ type: "text", text: "not confirmed" }] };
      for (let day = 1; day <= days; day++) {
        await sleep(stepMs, context.signal);
        await context.reportProgress(day, days, `day ${day} of ${days}`);
      }
      return { structuredContent: { days, rows: days * 24, ...(confirmedBy ? { confirmedBy } : {}) } };
    },
    async run_batch({ items, stepMs = 10 }, context) {
      for (let item = 1; item <= items; item++) {
        await sleep(stepMs, context.signal);
        await context.reportProgress(item, items);
      }
      return { content: [{ type: "text", text: `${items} items done` }] };
    },
    ping: () => ({ content: [{ type: "text", text: "pong" }] }),
  },
};
