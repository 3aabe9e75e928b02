/**
 * The forecast card: the view hosts render for get_forecast (MCP Apps). It shows the call's input as soon as the host
 * sends it, the days of the result, and, when a day is picked, that day's hours from get_hourly, a tool only views
 * may call (visibility [app]). Every type comes from the manifest through the generated view module: `input` is
 * get_forecast's input, `structuredContent` its output, `callTool` takes only the tools this view may call.
 * build.ts bundles it into views/forecast.html, the document the server serves as ui://weather-apps/forecast.
 */
import { createForecastView } from "../generated/view-forecast.ts";
import type { GetForecastInput, GetForecastOutput } from "../generated/types.ts";

const view = createForecastView();

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text: string, className?: string) => {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
};
const byId = (id: string) => document.getElementById(id)!;
const degrees = (units: GetForecastInput["units"]) => (units === "imperial" ? "°F" : "°C");

view.onToolInput((input) => {
  byId("title").textContent = `${input.city}: ${input.days ?? 3} days`;
  byId("status").textContent = "Fetching the forecast…";
});

view.onToolResult((result) => {
  if (result.isError) {
    byId("status").textContent = `The forecast failed: ${result.content.map((c) => String(c["text"] ?? "")).join(" ")}`;
    return;
  }
  showDays(result.structuredContent);
});

function showDays(forecast: GetForecastOutput): void {
  const list = byId("days");
  list.replaceChildren(
    ...forecast.days.map((day) => {
      const button = element("button", "", "day");
      button.dataset["date"] = day.date;
      button.append(
        element("span", day.date, "date"),
        element("span", day.conditions, "conditions"),
        element("span", `${day.low}…${day.high}${degrees(forecast.units)}`, "range"),
      );
      button.addEventListener("click", () => void showHours(forecast, day.date));
      return button;
    }),
  );
  byId("status").textContent = "Pick a day for its hours.";
}

async function showHours(forecast: GetForecastOutput, date: string): Promise<void> {
  byId("status").textContent = `Fetching the hours of ${date}…`;
  const result = await view.callTool("get_hourly", { city: forecast.city, date, units: forecast.units });
  if (result.isError) {
    byId("status").textContent = `get_hourly failed: ${result.content.map((c) => String(c["text"] ?? "")).join(" ")}`;
    return;
  }
  const { hours } = result.structuredContent;
  byId("hourly").replaceChildren(
    ...hours.map((h) =>
      element("li", `${String(h.hour).padStart(2, "0")}:00 ${h.temperature}${degrees(forecast.units)}`),
    ),
  );
  byId("status").textContent = `Hours of ${result.structuredContent.date}`;
}

await view.connect();
