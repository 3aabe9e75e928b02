/**
 * The stateless modes across isolates: one workerd process serving the same worker bundle as two services (two
 * isolates, nothing shared but the `MCP_REQUEST_STATE_KEY` binding), behind a round-robin proxy, so consecutive
 * requests of one client land on different isolates, as on Workers without affinity.
 *
 * - 2026-07-28 (SDK v2) is stateless by design: everything works, including sampling and elicitation, whose
 *   multi-round-trip request state one isolate seals and the other opens with the shared key.
 * - 2025-11-25 (SDK v1) with `sessions: false`: every plain request works. A server-to-client request (sampling,
 *   elicitation) would need the client's separately POSTed answer to reach the isolate that asked, which needs a
 *   session (affinity or shared storage); statelessly it is refused with an `isError` saying so.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "./bundle.ts";
import { connectV1, connectV2, type EdgeClient } from "./clients.ts";
import { start, type Running } from "./platforms.ts";
import { roundRobin, type Proxy } from "./proxy.ts";
import { APPS, type RoundTrips } from "./scenarios.ts";

const ROOT = resolve(import.meta.dirname, "../..");
// Bundles go to a temporary folder: nothing built is left in the repository.
const OUT = mkdtempSync(join(tmpdir(), "mcp-edge-bundles-"));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe.each(APPS)("$name on two workerd isolates behind a round-robin proxy", (app) => {
  let running: Running | undefined;
  let proxy: Proxy | undefined;
  let startError: unknown;

  beforeAll(async () => {
    const built = await bundle(join(ROOT, app.entries.workerd), "workerd", join(OUT, `${app.name}-isolates.js`));
    try {
      running = await start("workerd", built.file, 2);
      proxy = await roundRobin(running.urls);
    } catch (error) {
      startError = error;
    }
  });
  afterAll(async () => {
    await proxy?.close();
    await running?.stop();
  });

  async function against(connect: (url: string) => Promise<EdgeClient>, roundTrips: RoundTrips) {
    if (!running || !proxy) throw new Error(`workerd did not serve the bundle: ${String(startError)}`);
    const before = [...proxy.hits];
    const client = await connect(proxy.url);
    try {
      await app.run(client, roundTrips);
    } catch (error) {
      throw new Error(`${client.name} across isolates: ${String(error)}\n${running.output()}`, { cause: error });
    } finally {
      await client.close();
    }
    // Both isolates answered part of the conversation.
    expect(proxy.hits.map((hits, i) => hits - before[i]!)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Math.min(...proxy.hits.map((hits, i) => hits - before[i]!))).toBeGreaterThan(2);
  }

  it("SDK v2 (2026-07-28): every tool, resources, sampling and elicitation", () => against(connectV2, "answered"));
  it("SDK v1 (2025-11-25, sessions: false): every plain request; sampling and elicitation refused", () =>
    against(connectV1, "refused"));
});

describe("the control: two isolates with different request-state keys", () => {
  let running: Running | undefined;
  let proxy: Proxy | undefined;

  beforeAll(async () => {
    const signup = APPS[1];
    const built = await bundle(join(ROOT, signup.entries.workerd), "workerd", join(OUT, "signup-isolates-keys.js"));
    running = await start("workerd", built.file, 2, [
      "key-of-isolate-zero-0123456789abcdef",
      "key-of-isolate-one-0123456789abcdef",
    ]);
    proxy = await roundRobin(running.urls);
  });
  afterAll(async () => {
    await proxy?.close();
    await running?.stop();
  });

  it("SDK v2: a multi-round-trip call fails when the retry reaches an isolate that cannot open the state", async () => {
    const client = await connectV2(proxy!.url);
    try {
      // Plain calls do not need the key.
      expect((await client.callTool("register", { email: "a@b.co", name: "Ada", code: "ABC-123" })).isError).toBe(
        false,
      );
      const sampled = await client.callTool("ask_model", { question: "?" }).catch((error: unknown) => ({
        isError: true,
        text: String(error),
        structuredContent: undefined,
      }));
      expect(sampled.isError, sampled.text).toBe(true);
      expect(sampled.text).toMatch(/requestState rejected/);
    } finally {
      await client.close();
    }
  });
});
