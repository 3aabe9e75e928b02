/** The generated weather example (typed server and typed client) over real loopback HTTP, in every revision. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, SUPPORTED_REVISIONS } from "../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { createClient, createServer } from "../../../examples/weather/generated/index.ts";
import { handlers } from "../../../examples/weather/handlers.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await serve(createServer(handlers));
});
afterAll(async () => {
  await server.close();
});

describe("generated typed client ↔ generated server over HTTP", () => {
  for (const revision of SUPPORTED_REVISIONS) {
    it(`works in ${revision} exactly as over stdio`, async () => {
      const raw = new McpClient({
        info: { name: "weather-http", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      await raw.connect(new StreamableHttpClientTransport(server.url));
      const weather = createClient(raw);
      const forecast = await weather.tools.getForecast({ city: "Paris", days: 2 });
      expect(forecast.structuredContent.days).toHaveLength(2);
      expect(forecast.structuredContent.city).toBe("Paris");
      const current = await weather.resourceTemplates.currentConditions({ city: "Oslo" });
      expect(current.contents[0]?.uri).toContain("Oslo");
      expect(raw.revision).toBe(revision);
      await raw.close();
    });
  }
});
