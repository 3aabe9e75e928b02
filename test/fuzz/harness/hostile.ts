/**
 * The server the server-input properties attack (issue 20), with what each attack needs:
 * - resource templates whose matching used to backtrack (`weather://{city}-{date}-{unit}`, `{a}.{b}.{c}.{d}`);
 * - completions keyed by argument name, for a prompt and a template (`constructor`, `__proto__`, … must find none);
 * - `wait` (runs until `ms` pass or its request is cancelled) and `running` (how many `wait` handlers run now), to
 *   count requests in flight from outside;
 * - `ask`, which elicits: in the stateless era its first call answers with a sealed `requestState`.
 *
 * `node --import tsx hostile.ts stdio|http` or `bun hostile.ts web` (the web handler under Bun.serve); http and web
 * print the endpoint URL on stdout. `HOSTILE_SERVER` (JSON: McpServer options such as maxRequestsInFlight) and
 * `HOSTILE_HTTP` (JSON: serve()/handler options) configure it. SIGUSR2 (Node) writes `fuzz-heap <bytes>` to stderr
 * after a full GC, like launch.ts.
 */
import { builtinRevisions, McpServer, StdioServerTransport } from "../../../runtime/index.ts";
import { McpHttpHandler, toFetchHandler } from "../../../runtime/http/web-entry.ts";

interface BunApi {
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): {
    port: number;
  };
}
const Bun = (globalThis as { Bun?: BunApi }).Bun;

const options = JSON.parse(process.env["HOSTILE_SERVER"] ?? "{}") as Record<string, unknown>;
const httpOptions = JSON.parse(process.env["HOSTILE_HTTP"] ?? "{}") as Record<string, unknown>;
const server = new McpServer({
  revisions: builtinRevisions,
  info: { name: "hostile", version: "1.0.0" },
  onDiagnostic: (message) => process.stderr.write(`hostile: ${message.slice(0, 300)}\n`),
  ...options,
});

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const names = ["alice", "bob"];
server.prompt({ name: "greet", arguments: [{ name: "name", required: true }] }, () => ({ messages: [] }), {
  complete: { name: (value) => names.filter((n) => n.startsWith(value)) },
});
for (const uriTemplate of ["weather://{city}-{date}-{unit}", "{a}.{b}.{c}.{d}", "docs://{slug}{?version,lang}"]) {
  server.resourceTemplate(
    { uriTemplate, name: uriTemplate },
    (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
    { complete: { city: () => ["Oslo"] } },
  );
}

let running = 0;
server.tool(
  { name: "wait", inputSchema: { type: "object", properties: { ms: { type: "number" } } } },
  async (args: { ms?: number }, context) => {
    running++;
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, args.ms ?? 1000);
        context.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
      return text("waited");
    } finally {
      running--;
    }
  },
);
server.tool({ name: "running", inputSchema: { type: "object" } }, () => text(String(running)));
// Multi round-trip in the stateless era: the first call answers input_required with a sealed requestState.
server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, context) => {
  const answer = await context.elicit({
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  return text(JSON.stringify(answer));
});

const mode = process.argv[2] ?? "stdio";
if (mode === "stdio") {
  await server.connect(new StdioServerTransport());
} else if (mode === "web") {
  if (!Bun) throw new Error("web mode runs under Bun");
  const handler = new McpHttpHandler(server, httpOptions);
  const listening = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: toFetchHandler(handler) });
  process.stdout.write(`http://127.0.0.1:${listening.port}/mcp\n`);
} else {
  const { setFlagsFromString } = await import("node:v8");
  const { runInNewContext } = await import("node:vm");
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  process.on("SIGUSR2", () => {
    gc();
    gc();
    process.stderr.write(`fuzz-heap ${process.memoryUsage().heapUsed}\n`);
  });
  const { serve } = await import("../../../runtime/http/server/node.ts");
  const served = await serve(server, httpOptions);
  process.stdout.write(`${served.url}\n`);
}
