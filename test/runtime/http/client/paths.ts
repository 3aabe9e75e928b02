/** The two ways the client transport sends requests on Node; its transport tests run over each. */
import { expect } from "vitest";
import { StreamableHttpClientTransport, type HttpClientOptions } from "../../../../runtime/http/client/transport.ts";
import { CollectingSink, initializeMessage, request } from "../helpers.ts";

export const REQUEST_PATHS = ["node", "fetch"] as const;
export type RequestPath = (typeof REQUEST_PATHS)[number];

/** `new StreamableHttpClientTransport(url, options)` sending its requests over `path`. */
export function transportOver(
  path: RequestPath,
): (url: string | URL, options?: HttpClientOptions) => StreamableHttpClientTransport {
  return (url, options = {}) => new StreamableHttpClientTransport(url, { ...options, http: path });
}

/** A transport from `open`, started and initialized (2025-11-25) against `url`, with the sink that collects for it. */
export async function connectedOver(
  open: (url: string) => StreamableHttpClientTransport,
  url: string,
): Promise<{ transport: StreamableHttpClientTransport; sink: CollectingSink }> {
  const transport = open(url);
  const sink = new CollectingSink();
  await transport.start(sink);
  const params = (initializeMessage(0) as { params: unknown }).params;
  const init = await request(transport, sink, "init", "initialize", params);
  expect(init["result"]).toMatchObject({ protocolVersion: "2025-11-25" });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { transport, sink };
}
