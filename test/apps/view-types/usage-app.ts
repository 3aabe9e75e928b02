// A view on ext-apps' App class, typed by its generated binding (test/manifest/golden/apps, view forecast) with
// typedForecastApp: compiled with lib DOM and no Node types (view-types.test.ts; skipLibCheck, as ext-apps' own
// declarations name Node's Buffer). What a view may do compiles, and each wrong use below is a compile error.
import { App } from "@modelcontextprotocol/ext-apps";
import { typedForecastApp } from "../../manifest/golden/apps/expected/view-forecast.js";

const official = new App({ name: "forecast", version: "1.0.0" });
const app = typedForecastApp(official);

app.ontoolinput = ({ arguments: input }) => {
  const city: string = input.city;
  document.title = city;
  // @ts-expect-error a field the tool's input does not have
  void input.town;
};

app.ontoolinputpartial = (params) => void params.arguments?.city;

app.ontoolresult = (result) => {
  if (result.isError) return;
  const celsius: number = result.structuredContent.celsius;
  document.body.textContent = `${result.structuredContent.city}: ${celsius}`;
  // @ts-expect-error a wrong output field (the output schema is closed)
  void result.structuredContent.celsus;
  // @ts-expect-error a wrong type for an output field
  const wrong: string = result.structuredContent.celsius;
  void wrong;
};

export async function refresh(): Promise<void> {
  // The App's own members stay as ext-apps types them.
  await app.connect();
  const refreshed = await app.callServerTool({ name: "refresh_forecast", arguments: { city: "Oslo" } });
  void refreshed.content;
  const again = await app.callServerTool({ name: "get_forecast", arguments: { city: "Oslo" } }, { timeout: 5_000 });
  if (!again.isError) void again.structuredContent.celsius;
  // @ts-expect-error a wrong argument to callServerTool
  await app.callServerTool({ name: "refresh_forecast", arguments: { city: 3 } });
  // @ts-expect-error a missing required argument
  await app.callServerTool({ name: "refresh_forecast", arguments: {} });
  // @ts-expect-error a model-only tool is not callable by a view
  await app.callServerTool({ name: "summarize", arguments: {} });
  // @ts-expect-error a tool that does not exist
  await app.callServerTool({ name: "nothing", arguments: {} });
  // @ts-expect-error not an App: typedForecastApp takes ext-apps' class (or its shape)
  typedForecastApp({ ontoolinput: undefined });
}
