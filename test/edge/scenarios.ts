/**
 * What a client does with each example, and what it must get back. The expected answers come from the manifests and
 * the handlers' fixed data (examples/weather, test/edge/app), not from the server's code.
 */
import { expect } from "vitest";
import { MODEL_ANSWER, NICKNAME, type EdgeClient } from "./clients.ts";

/**
 * What becomes of the calls in which the server asks the client (sampling, elicitation): `answered` where the server
 * can reach the client (a session, or 2026-07-28's request state); `refused` on a stateless 2025-era server, which has
 * no way to receive the client's answer: an `isError` result saying so, not a claim that the client lacks the
 * capability it declared.
 */
export type RoundTrips = "answered" | "refused";

export type App = {
  readonly name: string;
  /** Entry file per platform, relative to the repository root. */
  readonly entries: { readonly workerd: string; readonly deno: string; readonly bun: string };
  readonly run: (client: EdgeClient, roundTrips?: RoundTrips) => Promise<void>;
};

/** An `isError` result (never a JSON-RPC error) whose text names `path` and the failed rule. */
function expectRejected(answer: { isError: boolean; text: string }, path: string, rule: RegExp) {
  expect(answer.isError, `expected an isError result, got: ${answer.text}`).toBe(true);
  expect(answer.text).toContain(path);
  expect(answer.text).toMatch(rule);
}

export const WEATHER: App = {
  name: "weather",
  entries: { workerd: "examples/workers/worker.ts", deno: "examples/deno/server.ts", bun: "examples/bun/server.ts" },
  async run(client) {
    expect((await client.listTools()).sort()).toEqual(["convert_temperature", "get_alerts", "get_forecast"]);

    const forecast = await client.callTool("get_forecast", { city: "Paris", days: 2 });
    expect(forecast.isError, forecast.text).toBe(false);
    const days = (forecast.structuredContent as { days: { date: string }[] }).days;
    expect(days.map((day) => day.date)).toEqual(["2026-01-01", "2026-01-02"]);
    // minLength: 1 (checked in code points by the JSON Schema check), pattern ^[A-Z]{2}$.
    expectRejected(await client.callTool("get_forecast", { city: "" }), "city", /fewer than 1 character/);
    expectRejected(await client.callTool("get_alerts", { region: "nor" }), "region", /pattern/);

    const alerts = await client.callTool("get_alerts", { region: "NO" });
    expect(alerts.isError, alerts.text).toBe(false);
    expect(alerts.structuredContent).toEqual({
      alerts: [{ severity: "moderate", headline: "Heavy snow in the mountains", expires: "2026-01-02T18:00:00Z" }],
    });
    expect((await client.callTool("convert_temperature", { value: 100, to: "fahrenheit" })).text).toBe("212°F");

    const stations = JSON.parse(await client.readResource("weather://stations")) as { city: string }[];
    expect(stations.map((station) => station.city)).toEqual(["Paris", "Oslo", "Lima"]);
    expect(JSON.parse(await client.readResource("weather://Oslo/current"))).toMatchObject({ city: "Oslo" });
    expect(await client.getPrompt("plan_trip", { city: "Lima", activity: "surfing" })).toBe(
      "Plan a day in Lima around surfing. Check get_forecast first.",
    );
    expect(await client.completePrompt("plan_trip", "city", "o")).toEqual(["Oslo"]);
  },
};

export const SIGNUP: App = {
  name: "signup",
  entries: { workerd: "test/edge/app/worker.ts", deno: "test/edge/app/deno.ts", bun: "test/edge/app/bun.ts" },
  async run(client, roundTrips = "answered") {
    expect((await client.listTools()).sort()).toEqual(["ask_model", "ask_user", "register"]);

    const valid = { email: "ada@example.com", name: "Ada", code: "ABC-123" };
    const registered = await client.callTool("register", valid);
    expect(registered.isError, registered.text).toBe(false);
    expect(registered.structuredContent).toEqual({ id: "123e4567-e89b-12d3-a456-426614174000", email: valid.email });
    expectRejected(await client.callTool("register", { ...valid, email: "not-an-email" }), "email", /format "email"/);
    // One code point, two UTF-16 units: zod alone would accept it.
    expectRejected(await client.callTool("register", { ...valid, name: "😀" }), "name", /fewer than 2 characters/);
    expectRejected(await client.callTool("register", { ...valid, code: "abc-123" }), "code", /pattern/);

    const sampled = await client.callTool("ask_model", { question: "Weather in Paris?" });
    const elicited = await client.callTool("ask_user", {});
    if (roundTrips === "answered") {
      expect(sampled, "sampling round trip").toMatchObject({ isError: false, text: `model says: ${MODEL_ANSWER}` });
      expect(elicited, "elicitation round trip").toMatchObject({ isError: false, text: `user accept: ${NICKNAME}` });
    } else {
      for (const [what, answer] of [
        ["sampling", sampled],
        ["elicitation", elicited],
      ] as const) {
        expect(answer.isError, `${what} on a stateless 2025-era server: ${answer.text}`).toBe(true);
        // The client declared both capabilities; a refusal must not say otherwise.
        expect(answer.text, `${what} refused for the wrong reason`).not.toMatch(/did not declare/);
      }
    }

    expect(await client.readResource("edge://about")).toBe("signup example");
  },
};

export const APPS = [WEATHER, SIGNUP] as const;
