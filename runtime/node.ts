/**
 * mcp-gen runtime: the Node-only entry (`@mcp-gen/runtime/node`). What needs Node's process and child-process
 * APIs lives here, so the core entry bundles for Workers, Deno and Bun without `node:*` modules:
 * `StdioClientTransport` spawns a server as a child process. (`StdioServerTransport` stays in the core entry: it
 * reads the streams it is given and imports nothing from Node at run time.)
 */
export { DEFAULT_INHERITED_ENV, StdioClientTransport } from "./transport/stdio-client.ts";
export type { StdioClientTransportOptions, StdioExitStatus } from "./transport/stdio-client.ts";
