/**
 * The apps example served for a browser: `npx tsx examples/apps/serve.ts [port]` (npm run example:apps builds the
 * view first) puts the server's Streamable HTTP endpoint at /mcp and the host page at / on one loopback origin, and
 * prints the page's URL, e.g. http://127.0.0.1:3000/. Open it, ask for a city, and pick a day in the card.
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { toNodeListener } from "@mcp-gen/runtime/http";
import { McpHttpHandler } from "@mcp-gen/runtime/http/web";
import { bundleHost } from "./build.ts";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const port = Number(process.argv[2] ?? process.env["PORT"] ?? 3000);
const page = readFileSync(path.join(import.meta.dirname, "host/index.html"), "utf8");
const hostScript = await bundleHost();

const server = createServer(handlers, {
  onDiagnostic: (message) => process.stderr.write(`weather-apps: ${message}\n`),
});
const mcp = toNodeListener(new McpHttpHandler(server));

const http = createHttpServer((req, res) => {
  const url = req.url ?? "/";
  if (url === "/mcp" || url.startsWith("/mcp?")) return mcp(req, res);
  const file =
    url === "/"
      ? { type: "text/html; charset=utf-8", body: page }
      : url === "/host.js"
        ? { type: "text/javascript; charset=utf-8", body: hostScript }
        : undefined;
  if (req.method !== "GET" || !file) {
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    return;
  }
  res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
});
http.listen(port, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/\n`);
});
