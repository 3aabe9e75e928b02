/** The signup example on Deno, built like examples/deno/server.ts. */
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(options: { port: number; hostname: string }, handler: (request: Request) => Promise<Response>): unknown;
};

Deno.serve(
  { port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1" },
  toFetchHandler(new McpHttpHandler(createServer(handlers))),
);
