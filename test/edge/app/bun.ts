/** The signup example on Bun, built like examples/bun/server.ts. */
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

declare const Bun: {
  env: Readonly<Record<string, string | undefined>>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): unknown;
};

Bun.serve({
  port: Number(Bun.env["PORT"]),
  hostname: "127.0.0.1",
  fetch: toFetchHandler(new McpHttpHandler(createServer(handlers))),
});
