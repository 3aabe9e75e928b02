/**
 * The server `npm run conformance` tests: examples/everything (generated from its manifest, with its handlers)
 * served over HTTP on a free loopback port. Prints `MCP_URL=<url>` once listening; stops on SIGTERM.
 * `MCP_CONFORMANCE_SERVER=<module>` serves another module's `createEverythingServer()` instead (for prototyping).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "../runtime/http/node.ts";
import type { SessionHost } from "../runtime/http/handler.ts";

async function loadServer(): Promise<SessionHost> {
  const override = process.env["MCP_CONFORMANCE_SERVER"];
  if (override) {
    const module = (await import(pathToFileURL(resolve(override)).href)) as { createEverythingServer(): SessionHost };
    return module.createEverythingServer();
  }
  const generated = (await import("../examples/everything/generated/index.ts" as string)) as {
    createServer(handlers: unknown, options?: object): SessionHost;
  };
  const { handlers } = (await import("../examples/everything/handlers.ts" as string)) as { handlers: unknown };
  return generated.createServer(handlers, { onDiagnostic: (m: string) => process.stderr.write(`everything: ${m}\n`) });
}

const server = await loadServer();
const running = await serve(server, { port: Number(process.env["PORT"] ?? 0), retryMs: 500 });
process.stdout.write(`MCP_URL=${running.url}\n`);
process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
process.once("SIGINT", () => void running.close().then(() => process.exit(0)));
