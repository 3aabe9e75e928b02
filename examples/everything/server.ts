/**
 * The conformance server over stdio (`npx tsx examples/everything/server.ts`). The HTTP transports (runtime/http/)
 * serve the same `createServer(handlers)` for the conformance suite.
 */
import { StdioServerTransport } from "@mcp-gen/runtime";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const server = createServer(handlers, { onDiagnostic: (message) => process.stderr.write(`everything: ${message}\n`) });
await server.connect(new StdioServerTransport());
