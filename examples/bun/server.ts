/**
 * The weather example on Bun: `bun run --no-install server.js` on the bundle (see README.md here), or straight from
 * this repository with `bun run examples/bun/server.ts`. One process keeps its sessions in memory, so the default
 * (sessions for the 2025 revisions) works as on Node.
 */
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "../weather/generated/index.ts";
import { handlers } from "../weather/handlers.ts";

/** The part of the `Bun` global this file uses. */
declare const Bun: {
  env: Readonly<Record<string, string | undefined>>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): { port: number };
};

const handler = new McpHttpHandler(createServer(handlers));
const running = Bun.serve({
  port: Number(Bun.env["PORT"] ?? 3000),
  hostname: "127.0.0.1",
  fetch: toFetchHandler(handler),
});
console.log(`http://127.0.0.1:${running.port}/mcp`);
