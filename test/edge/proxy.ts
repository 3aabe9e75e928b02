/**
 * A round-robin HTTP proxy: each request goes to the next upstream in turn, as a load balancer without affinity
 * would send it (so consecutive requests of one client land on different isolates). Bodies stream both ways.
 */
import { createServer, request as httpRequest, type Server } from "node:http";

export type Proxy = { readonly url: string; readonly hits: readonly number[]; readonly close: () => Promise<void> };

export async function roundRobin(upstreams: readonly string[]): Promise<Proxy> {
  const hits = upstreams.map(() => 0);
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next++ % upstreams.length;
    hits[index]!++;
    const target = new URL(incoming.url ?? "/", upstreams[index]);
    const forwarded = httpRequest(
      target,
      { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`proxy: upstream ${target.href} failed: ${error.message}`);
    });
    outgoing.on("close", () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("proxy: no address");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    hits,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
