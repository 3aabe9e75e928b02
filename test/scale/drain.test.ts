/**
 * A rolling restart (issue 38 item 1), on a real Redis and three real instances behind a proxy that routes by the
 * instances' readiness endpoints: one instance gets SIGTERM (the shutdown recipe of docs/scaling.md,
 * `running.close({ drainMs, unreadyMs })`, in test/scale/instance.ts) while the official SDK v1 client has 20 calls in
 * flight. Every call completes or gets a retryable error (503 with Retry-After, or a JSON-RPC error saying to send it
 * again), no response is 404, the session goes on on the other instances (its GET stream too), readiness turns 503
 * before the listener closes, the process exits 0, and the instance started again serves the same session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { InstanceProcess, RedisProcess } from "./cluster.ts";
import { ProbingProxy } from "./probing-proxy.ts";
import { textOf } from "./use-cluster.ts";
import { waitFor } from "../runtime/http/helpers.ts";

const SHORT_MS = 2_000;
const LONG_MS = 9_000;
const DRAIN_MS = 3_500;
const UNREADY_MS = 500;

const redis = new RedisProcess();
let instances: InstanceProcess[] = [];
let proxy: ProbingProxy;

beforeAll(async () => {
  await redis.start();
  const env = { REDIS_URL: redis.url, DRAIN_MS: String(DRAIN_MS), UNREADY_MS: String(UNREADY_MS) };
  instances = ["i0", "i1", "i2"].map((id) => new InstanceProcess(id, env));
  await Promise.all(instances.map((i) => i.start()));
  proxy = new ProbingProxy(instances, 100);
  await proxy.start();
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(instances.map((i) => i.kill("SIGKILL")));
  await redis.stop();
});

/** The `pause` calls an instance started, by duration (test/scale/instance.ts prints one line per call). */
function startsOf(instance: InstanceProcess): number[] {
  return [...instance.stderr.matchAll(/^scale-pause-start \w+ (\d+)$/gm)].map((m) => Number(m[1]));
}

/** What readiness said, polled on the instance itself until it stops answering: the statuses, then the failure. */
async function watchReadiness(instance: InstanceProcess): Promise<Array<number | "refused">> {
  const seen: Array<number | "refused"> = [];
  const readyUrl = new URL("/ready", instance.url);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    try {
      const answer = await fetch(readyUrl, { signal: AbortSignal.timeout(5_000) });
      await answer.arrayBuffer();
      if (seen.at(-1) !== answer.status) seen.push(answer.status);
    } catch {
      seen.push("refused");
      return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return seen;
}

type Outcome = { ok: true; text: string; at: number } | { ok: false; error: Error; at: number };

/** A retryable refusal: HTTP 503 (the SDK's StreamableHTTPError), or the JSON-RPC error of a stream given up. */
function isRetryable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (code === 503 || code === -32603) && /shutting down; send the request again/.test(error.message);
}

describe("SIGTERM to one of three instances while 20 calls are in flight (SDK v1 client)", () => {
  it("every call completes or gets a retryable error; no 404; the session goes on; readiness turns first", async () => {
    const responses: Array<{ method: string; status: number; retryAfter: string | null }> = [];
    const recording: typeof fetch = async (url, init) => {
      const answer = await fetch(url, init);
      responses.push({
        method: init?.method ?? "GET",
        status: answer.status,
        retryAfter: answer.headers.get("retry-after"),
      });
      return answer;
    };
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    const changed: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void changed.push(n));
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: recording }));
    await waitFor(() => responses.some((r) => r.method === "GET" && r.status === 200), 30_000);

    // Durations alternate, so with round robin every instance runs short calls (they finish within the drain) and
    // long ones (they outlast it); a quarter of the calls ask for progress, so their answer is already an SSE stream.
    const calls: Array<Promise<Outcome>> = Array.from({ length: 20 }, (_, k) => {
      const ms = k % 2 === 0 ? SHORT_MS : LONG_MS;
      const progress = k % 4 === 1 ? { onprogress: () => undefined } : undefined;
      return client.callTool({ name: "pause", arguments: { ms } }, undefined, progress).then(
        (result): Outcome => ({ ok: true, text: textOf(result), at: Date.now() }),
        (error: Error): Outcome => ({ ok: false, error, at: Date.now() }),
      );
    });
    await waitFor(() => instances.reduce((n, i) => n + startsOf(i).length, 0) >= 20, 60_000);
    const victim = instances.find((i) => startsOf(i).includes(SHORT_MS) && startsOf(i).includes(LONG_MS));
    expect(victim, "an instance running short and long calls").toBeDefined();
    const others = instances.filter((i) => i !== victim).map((i) => i.id);

    expect((await fetch(new URL("/ready", victim!.url))).status).toBe(200);
    const readiness = watchReadiness(victim!);
    const sigtermAt = Date.now();
    const exited = victim!.kill("SIGTERM");
    const outcomes = await Promise.all(calls);
    await exited;

    expect(victim!.exitCode, victim!.stderr).toBe(0);
    const said = await readiness;
    expect(said.slice(said[0] === 200 ? 1 : 0), "readiness 503 before the listener closed").toEqual([503, "refused"]);
    for (const outcome of outcomes)
      if (!outcome.ok) expect(isRetryable(outcome.error), String(outcome.error)).toBe(true);
    const finishedThere = outcomes.filter((o) => o.ok && o.text === `paused on ${victim!.id}` && o.at > sigtermAt);
    expect(finishedThere.length, "calls in flight on the instance finished during the drain").toBeGreaterThan(0);
    expect(outcomes.filter((o) => !o.ok).length, "calls outlasting the drain got the retryable error").toBeGreaterThan(
      0,
    );
    expect(responses.filter((r) => r.status === 404)).toEqual([]);
    for (const refused of responses.filter((r) => r.status === 503)) expect(refused.retryAfter).toBe("1");

    // The session goes on: its calls on the other two instances, its GET stream reopened on one of them.
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) served.add(textOf(await client.callTool({ name: "whoami", arguments: {} })));
    expect([...served].sort()).toEqual(others.sort());
    await client.callTool({ name: "add_tool", arguments: { name: "after_drain" } });
    await waitFor(() => changed.length > 0, 30_000);

    // Started again, the instance serves the same session (reopened from the store).
    await victim!.start();
    await waitFor(() => proxy.readyNow(victim!), 30_000);
    let sawVictim = false;
    for (let i = 0; i < 12 && !sawVictim; i++)
      sawVictim = textOf(await client.callTool({ name: "whoami", arguments: {} })) === victim!.id;
    expect(sawVictim).toBe(true);
    expect(responses.filter((r) => r.status === 404)).toEqual([]);
    await client.close();
  }, 180_000);
});
