/** OAuth 2.0 Protected Resource Metadata (RFC 9728), served at the path-based well-known URL. */

export interface ProtectedResourceMetadata {
  /** The canonical URL of the MCP endpoint, e.g. `https://mcp.example.com/mcp` (no fragment). */
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly [extra: string]: unknown;
}

/**
 * The well-known path for a resource URL: `https://h/public/mcp` → `/.well-known/oauth-protected-resource/public/mcp`
 * (RFC 9728 §3.1: the well-known segment goes between the host and the path).
 */
export function metadataPath(resource: string): string {
  const path = new URL(resource).pathname.replace(/\/+$/, "");
  return `/.well-known/oauth-protected-resource${path}`;
}

/** The absolute metadata URL named in `WWW-Authenticate`. */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${metadataPath(resource)}`;
}

export function metadataDocument(metadata: ProtectedResourceMetadata): ProtectedResourceMetadata {
  return { bearer_methods_supported: ["header"], ...metadata };
}
