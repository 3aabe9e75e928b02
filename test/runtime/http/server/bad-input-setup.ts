/** The server and helpers the bad-input tests share: the HTTP layer over the fixture host, with small limits. */
import { afterAll, beforeAll } from "vitest";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost, FIXTURE_TOOLS } from "../fixtures/fixture-host.ts";
import { headerParamsFromTools } from "../../../../runtime/http/server/stateless-checks.ts";
import { modernMeta, MODERN } from "../helpers.ts";

/** Starts the server for the calling test file (beforeAll/afterAll); read `.server` inside tests. */
export function badInputServer(): { readonly host: FixtureHost; readonly server: RunningServer } {
  const host = new FixtureHost();
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await serve(host, { maxBodyBytes: 64 * 1024, headerParams: headerParamsFromTools(FIXTURE_TOOLS) });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    host,
    get server(): RunningServer {
      if (!server) throw new Error("the server starts in beforeAll");
      return server;
    },
  };
}

export async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  const body = (await response.json()) as { error: { code: number; message: string } };
  return body.error;
}

export const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});

export const call = (id: number, name: string, args: object = {}, meta = modernMeta()) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: meta },
});
