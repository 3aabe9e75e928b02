/**
 * Starts the weather server over stdio and calls it through the generated typed client:
 * `npx tsx examples/weather/client.ts`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { builtinRevisions, McpClient } from "@mcp-gen/runtime";
import { StdioClientTransport } from "@mcp-gen/runtime/node";
import { createClient } from "./generated/index.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const raw = new McpClient({ revisions: builtinRevisions, info: { name: "weather-example-client", version: "1.0.0" } });
await raw.connect(
  new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", path.join(here, "server.ts")] }),
);
const weather = createClient(raw);

const forecast = await weather.tools.getForecast({ city: "Paris", days: 2 });
for (const day of forecast.structuredContent.days) console.log(`${day.date} ${day.conditions} ${day.low}..${day.high}`);
const alerts = await weather.tools.getAlerts({ region: "NO" });
console.log(`alerts: ${alerts.structuredContent.alerts.map((a) => a.headline).join(", ") || "none"}`);
const current = await weather.resourceTemplates.currentConditions({ city: "Oslo" });
const conditions = current.contents[0];
console.log(`current: ${JSON.stringify(conditions && "text" in conditions ? conditions.text : undefined)}`);
console.log(`revision: ${raw.revision}`);
await raw.close();
