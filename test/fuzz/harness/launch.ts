/**
 * The process the fuzz suite attacks: examples/everything's generated server, exactly as its server.ts (stdio)
 * and http.ts (`serve()`) start it, plus two test-only additions:
 * - SIGUSR2 runs a full GC and writes `fuzz-heap <heapUsed bytes>` to stderr (so a test can see whether the heap
 *   stays flat without attaching an inspector);
 * - `FUZZ_HTTP_OPTIONS` (JSON: serve options such as maxBodyBytes) and `FUZZ_AUTH` (JSON: issuer, audience, jwks)
 *   configure the HTTP server; with FUZZ_AUTH the tokens are checked by `jwtVerifier` against that local JWKS.
 *
 * `tsx test/fuzz/harness/launch.ts stdio|http`; http prints the endpoint URL on stdout.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { StdioServerTransport } from "../../../runtime/index.ts";
import { jwtVerifier } from "../../../runtime/auth/index.ts";
import { serve, type ServeOptions } from "../../../runtime/http/index.ts";
import type { JSONWebKeySet } from "jose";
import { createServer } from "../../../examples/everything/generated/index.ts";
import { handlers } from "../../../examples/everything/handlers.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
process.on("SIGUSR2", () => {
  gc();
  gc();
  process.stderr.write(`fuzz-heap ${process.memoryUsage().heapUsed}\n`);
});

const mode = process.argv[2] ?? "stdio";
const server = createServer(handlers, {
  onDiagnostic: (message) => process.stderr.write(`everything: ${message.slice(0, 300)}\n`),
});

if (mode === "stdio") {
  await server.connect(new StdioServerTransport());
} else {
  const options = JSON.parse(process.env["FUZZ_HTTP_OPTIONS"] ?? "{}") as Record<string, unknown>;
  const authEnv = process.env["FUZZ_AUTH"];
  let auth: ServeOptions["auth"];
  if (authEnv) {
    const { issuer, audience, jwks } = JSON.parse(authEnv) as { issuer: string; audience: string; jwks: JSONWebKeySet };
    auth = {
      verifyToken: jwtVerifier({ issuer, audience, jwks }),
      resourceMetadata: { resource: audience, authorization_servers: [issuer] },
    };
  }
  const running = await serve(server, { ...options, ...(auth ? { auth } : {}) } as ServeOptions);
  process.stdout.write(`${running.url}\n`);
}
