/** The weather example server over stdio: `npx tsx examples/weather/server.ts`. */
import { StdioServerTransport } from "@mcp-gen/runtime";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const server = createServer(handlers, { onDiagnostic: (message) => process.stderr.write(`weather: ${message}\n`) });
await server.connect(new StdioServerTransport());
