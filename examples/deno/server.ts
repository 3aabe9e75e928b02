/**
 * The weather example on Deno: `deno run --allow-net --allow-env server.js` on the bundle (see README.md here), or
 * straight from this repository with `deno run --allow-net --allow-env --allow-read examples/deno/server.ts`.
 * One process keeps its sessions in memory, so the default (sessions for the 2025 revisions) works as on Node.
 */
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "../weather/generated/index.ts";
import { handlers } from "../weather/handlers.ts";

/** The part of the `Deno` global this file uses. */
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen?: (address: { port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const handler = new McpHttpHandler(createServer(handlers));
Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 3000),
    hostname: "127.0.0.1",
    onListen: ({ port }) => console.log(`http://127.0.0.1:${port}/mcp`),
  },
  toFetchHandler(handler),
);
