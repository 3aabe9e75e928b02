/**
 * MCP Apps end to end in headless Chromium, real processes: the apps example (`npm run example:apps`: build.ts,
 * generating again when the view changed, then serve.ts: the generated server over Streamable HTTP and the host
 * page on one loopback origin), its page on the official ext-apps `AppBridge`. The host renders our server's view
 * for a get_forecast call; the view (the generated typed view module, bundled into the view's HTML) shows the input
 * and the result, calls the app-only get_hourly through the host when a day is clicked, and updates its DOM. The
 * oracle is the example's handlers' formula, recomputed here, and the DOM the view writes; a screenshot goes to
 * .tmp/screenshots/. A raw tools/call posted in the iframe reaches the server for get_hourly and is refused by the
 * host for the model-only summarize_week. The harness (browser, processes, page server) is browser-harness.ts, for more cases.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BROWSER_WAIT_MS,
  launchBrowser,
  screenshot,
  startUrlProcess,
  type LaunchedBrowser,
  type UrlProcess,
} from "./browser-harness.ts";
import { buildViewHtml, VIEW_HTML } from "../../examples/apps/build.ts";

// Read before the example's command rebuilds it: the committed view must be what build.ts makes.
const COMMITTED_VIEW = readFileSync(VIEW_HTML, "utf8");
let example: UrlProcess;
let browser: LaunchedBrowser;

beforeAll(async () => {
  [example, browser] = await Promise.all([
    // The documented command (docs/apps.md), on a free port: builds the view (generating when it changed), serves.
    startUrlProcess("npm", ["run", "example:apps", "--", "0"]),
    launchBrowser(),
  ]);
}, 4 * BROWSER_WAIT_MS);

afterAll(async () => {
  await Promise.all([browser?.close(), example?.stop()]);
});

/** The example's made-up temperature (examples/apps/handlers.ts), written again as the test's oracle. */
function base(city: string, day: number): number {
  let hash = 0;
  for (const ch of city.toLowerCase()) hash = (hash * 31 + ch.charCodeAt(0)) % 997;
  return (hash % 25) + day;
}

describe("the apps example in Chromium, hosted by ext-apps' AppBridge", () => {
  it("serves the view as built: views/forecast.html is what build.ts makes of views/forecast.ts", async () => {
    expect(COMMITTED_VIEW).toBe(await buildViewHtml());
  });

  it(
    "renders get_forecast's view with the typed input and result, and the view calls the app-only get_hourly",
    async () => {
      const { page, errors } = await browser.newPage();
      await page.goto(example.url);
      await page.locator("#host-status").filter({ hasText: "connected" }).waitFor();
      await page.fill("#city", "Oslo");
      await page.selectOption("#days", "5");
      await page.click("button[type=submit]");

      const view = page.frameLocator("iframe[title='get_forecast view']");
      // The input (ui/notifications/tool-input), then the result (tool-result) as the view renders them.
      await expect.poll(() => view.locator("#title").textContent(), { timeout: BROWSER_WAIT_MS }).toBe("Oslo: 5 days");
      await view.locator(".day").nth(4).waitFor();
      const days = await view.locator(".day").evaluateAll((buttons) =>
        buttons.map((b) => ({
          date: (b as HTMLElement).dataset["date"],
          range: b.querySelector(".range")?.textContent,
        })),
      );
      expect(days).toEqual(
        [0, 1, 2, 3, 4].map((i) => ({
          date: `2026-01-0${i + 1}`,
          range: `${base("Oslo", i) - 3}…${base("Oslo", i) + 5}°C`,
        })),
      );
      await expect
        .poll(() => view.locator("#status").textContent(), { timeout: BROWSER_WAIT_MS })
        .toBe("Pick a day for its hours.");

      // A click in the view: tools/call get_hourly through the host (AppBridge → our server), rendered in the view.
      await view.locator(".day[data-date='2026-01-02']").click();
      await view.locator("#status").filter({ hasText: "Hours of 2026-01-02" }).waitFor();
      const hours = await view.locator("#hourly li").allTextContents();
      const low = base("Oslo", 1) - 3;
      expect(hours).toEqual(
        [0, 3, 6, 9, 12, 15, 18, 21].map(
          (h) =>
            `${String(h).padStart(2, "0")}:00 ${low + Math.round(8 * Math.sin((Math.PI * Math.max(0, h - 5)) / 20))}°C`,
        ),
      );
      await expect.poll(() => page.locator("#host-status").textContent()).toBe("get_forecast(Oslo) shown");
      await screenshot(page, "apps-forecast");
      expect(errors).toEqual([]);
      await page.close();
    },
    4 * BROWSER_WAIT_MS,
  );

  it(
    "the host answers a view's tools/call for a tool apps may see, and refuses a model-only one",
    async () => {
      const { page } = await browser.newPage();
      await page.goto(example.url);
      await page.locator("#host-status").filter({ hasText: "connected" }).waitFor();
      await page.click("button[type=submit]");
      await expect.poll(() => page.locator("#host-status").textContent()).toBe("get_forecast(Paris) shown");
      const frame = await (await page.locator("iframe[title='get_forecast view']").elementHandle())!.contentFrame();
      /** A raw tools/call from inside the view's iframe, as any script there may post it; the host's answer. */
      const call = (name: string, args: Record<string, unknown>, id: string) =>
        frame!.evaluate(
          ([name, args, id]) =>
            new Promise<{ result?: { structuredContent?: { hours?: unknown[] } }; error?: { message: string } }>(
              (resolve) => {
                const onMessage = (event: MessageEvent) => {
                  if ((event.data as { id?: unknown } | null)?.id !== id) return;
                  removeEventListener("message", onMessage);
                  resolve(event.data as never);
                };
                addEventListener("message", onMessage);
                parent.postMessage(
                  { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } },
                  "*",
                );
              },
            ),
          [name, args, id] as const,
        );
      const allowed = await call("get_hourly", { city: "Paris", date: "2026-01-01" }, "probe-app");
      expect(allowed.error).toBeUndefined();
      expect(allowed.result?.structuredContent?.hours).toHaveLength(8);
      const refused = await call("summarize_week", { city: "Paris" }, "probe-model");
      expect(refused.result).toBeUndefined();
      expect(refused.error?.message).toContain("Tool summarize_week is not available to views");
      await page.close();
    },
    4 * BROWSER_WAIT_MS,
  );
});
