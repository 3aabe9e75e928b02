/**
 * Type tests of the generated weather stub and client (checked by tsc: `npm test` and compile.test.ts). Every
 * `@ts-expect-error` must be an error, or tsc reports the unused directive and the check fails.
 */
import type { z } from "zod";
import type { McpClient, McpServer } from "../../../runtime/index.ts";
import { revision as revision_2025_11_25 } from "../../../runtime/generated/protocol/2025-11-25/index.ts";
import {
  createClient,
  createServer,
  type GetForecastInputSchema,
  type GetForecastInput,
  type GetForecastOutput,
  type ServerHandlers,
} from "../../../examples/weather/generated/index.ts";
import { handlers } from "../../../examples/weather/handlers.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value: T): T => value;

// ---- the server stub --------------------------------------------------------------------------------------

export const wrongOutputValue: ServerHandlers["tools"]["get_forecast"] = () => ({
  // @ts-expect-error "kelvin" is not one of the output schema's units
  structuredContent: { city: "Paris", units: "kelvin", days: [] },
});

export const wrongOutputShape: ServerHandlers["tools"]["get_forecast"] = () => ({
  // @ts-expect-error `days` is required by the output schema
  structuredContent: { city: "Paris", units: "metric" },
});

// @ts-expect-error a tool with an outputSchema must return structuredContent (or an isError result)
export const missingStructured: ServerHandlers["tools"]["get_forecast"] = () => ({
  content: [{ type: "text", text: "hi" }],
});

export const errorResultIsFine: ServerHandlers["tools"]["get_forecast"] = () => ({
  isError: true,
  content: [{ type: "text", text: "no such city" }],
});

export const contentToolStructured: ServerHandlers["tools"]["convert_temperature"] = () => ({
  content: [],
  // @ts-expect-error a tool without an outputSchema cannot return structuredContent
  structuredContent: { x: 1 },
});

export const wrongInputUse: ServerHandlers["tools"]["get_forecast"] = (input) => {
  // @ts-expect-error `city` is a string
  const n: number = input.city;
  void n;
  return { structuredContent: { city: input.city, units: input.units ?? "metric", days: [] } };
};

export const missingHandler: ServerHandlers = {
  ...handlers,
  // @ts-expect-error every tool of the manifest needs a handler (get_alerts is missing)
  tools: { get_forecast: handlers.tools.get_forecast, convert_temperature: handlers.tools.convert_temperature },
};

// @ts-expect-error every prompt needs a handler
export const missingPrompt: ServerHandlers = { ...handlers, prompts: {} };

export const inputTypes: ServerHandlers["tools"]["get_forecast"] = (input) => {
  assertType<Equal<typeof input.city, string>>(true);
  assertType<Equal<typeof input.days, number | undefined>>(true);
  assertType<Equal<typeof input.units, "metric" | "imperial" | undefined>>(true);
  return { structuredContent: { city: input.city, units: "metric", days: [] } };
};

export const templateVariables: ServerHandlers["resourceTemplates"]["current_conditions"] = (variables, uri) => {
  assertType<Equal<typeof variables.city, string>>(true);
  return { contents: [{ uri, text: variables.city }] };
};

createServer(handlers);
// The manifest's revisions are overridden by descriptors only: the generated server is an McpServer, which
// would refuse a built-in name at run time, so the option's type refuses it first.
createServer(handlers, { revisions: [revision_2025_11_25] });
// @ts-expect-error a revision is passed as its descriptor, not by name
createServer(handlers, { revisions: ["2025-11-25"] });
// What createServer returns is the one server class, McpServer.
export const asServer: McpServer = createServer(handlers);

// The exported validators are typed by the declared types (their agreement is proven by differential.test.ts).
assertType<Equal<z.infer<typeof GetForecastInputSchema>, GetForecastInput>>(true);
// @ts-expect-error a validator's output is its declared type, not a looser one
assertType<Equal<z.infer<typeof GetForecastInputSchema>, { city: string }>>(true);

// ---- the client -------------------------------------------------------------------------------------------

export async function clientCalls(raw: McpClient): Promise<void> {
  const weather = createClient(raw);
  const forecast = await weather.tools.getForecast({ city: "Paris", days: 2 });
  assertType<Equal<typeof forecast.structuredContent, GetForecastOutput>>(true);
  assertType<
    Equal<(typeof forecast.structuredContent.days)[number]["conditions"], "sunny" | "cloudy" | "rain" | "snow">
  >(true);

  // @ts-expect-error `city` is required
  await weather.tools.getForecast({ days: 2 });
  // @ts-expect-error `days` is an integer, not a string
  await weather.tools.getForecast({ city: "Paris", days: "2" });
  // @ts-expect-error the input schema is closed (additionalProperties: false)
  await weather.tools.getForecast({ city: "Paris", bogus: true });
  // @ts-expect-error no such tool
  await weather.tools.getWeather({ city: "Paris" });
  // @ts-expect-error template variables are typed: `city`, not `town`
  await weather.resourceTemplates.currentConditions({ town: "Oslo" });
  // @ts-expect-error prompt argument `city` is required
  await weather.prompts.planTrip({ activity: "hiking" });
  // @ts-expect-error an input with a required property cannot be left out (only one that may be `{}` can)
  await weather.tools.convertTemperature();
  // @ts-expect-error members are camelCase; the manifest's name is only what goes on the wire
  await weather.tools.convert_temperature({ value: 20, to: "fahrenheit" });

  const converted = await weather.tools.convertTemperature({ value: 20, to: "fahrenheit" });
  // A content-only tool resolves to the runtime's CallToolResult (every built-in revision's), items ContentBlock.
  assertType<Equal<typeof converted, import("../../../runtime/index.ts").CallToolResult>>(true);
  assertType<Equal<(typeof converted.content)[number], import("../../../runtime/index.ts").ContentBlock>>(true);
}

// A client given only the revisions it speaks wraps the same way.
export const fromCore = (raw: McpClient) => createClient(raw).raw;
