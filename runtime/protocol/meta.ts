/**
 * `_meta` keys the runtime reads and writes. The `io.modelcontextprotocol/*` keys carry per-request protocol state in
 * the stateless era (basic/index.mdx#_meta).
 */
export const MetaKey = {
  progressToken: "progressToken",
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export { metaOf, withMeta, type MetaObject } from "../jsonrpc/params-meta.ts";

/** syslog severities, lowest first (server/utilities/logging.mdx). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function logLevelRank(level: unknown): number {
  return LOG_LEVELS.indexOf(level as LogLevel);
}
