// A view's use of its generated binding (test/manifest/golden/apps, view forecast), compiled with lib DOM and no
// Node types (view-types.test.ts): what a view may do compiles, and each wrong use below is a compile error.
import { createForecastView } from "../../manifest/golden/apps/expected/view-forecast.js";
import { createPlainView } from "../../manifest/golden/apps/expected/view-plain.js";

const view = createForecastView({ version: "1.0.0" });

view.onToolInput((input) => {
  const city: string = input.city;
  document.title = city;
  // @ts-expect-error a field the tool's input does not have
  void input.town;
});

view.onToolResult((result) => {
  if (result.isError) return;
  const celsius: number = result.structuredContent.celsius;
  document.body.textContent = `${result.structuredContent.city}: ${celsius}`;
  // @ts-expect-error a wrong output field (the output schema is closed)
  void result.structuredContent.celsus;
  // @ts-expect-error a wrong type for an output field
  const wrong: string = result.structuredContent.celsius;
  void wrong;
});

export async function refresh(): Promise<void> {
  await view.connect();
  const refreshed = await view.callTool("refresh_forecast", { city: "Oslo" });
  void refreshed.content;
  const again = await view.callTool("get_forecast", { city: "Oslo" });
  if (!again.isError) void again.structuredContent.celsius;
  // @ts-expect-error a wrong argument to callTool
  await view.callTool("refresh_forecast", { city: 3 });
  // @ts-expect-error a missing required argument
  await view.callTool("refresh_forecast", {});
  // @ts-expect-error a model-only tool is not callable by a view
  await view.callTool("summarize", {});
  // @ts-expect-error a tool that does not exist
  await view.callTool("nothing", {});
  const mode = await view.requestDisplayMode("fullscreen");
  // @ts-expect-error not a display mode
  await view.requestDisplayMode("maximized");
  void mode;
}

const plain = createPlainView();
// @ts-expect-error show_plain has no output schema: structuredContent is undefined
plain.onToolResult((result) => void (result.isError || result.structuredContent.anything));
