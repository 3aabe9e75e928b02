/**
 * What both sides know of an extension beyond its methods (basic/versioning.mdx#extension-negotiation,
 * extensions/overview.mdx): the revisions it is defined for, and the error a request gets when it needs an extension
 * the client did not declare.
 */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";

/** An extension's identity and reach: what `mcp-gen protocol` writes into a generated `extension` descriptor. */
export interface ExtensionScope {
  /** The extension identifier, `{vendor-prefix}/{name}`, e.g. `com.example/notes`. */
  readonly id: string;
  /**
   * The wire versions of the revisions the extension extends: it is declared, advertised and served under these only.
   * Absent: under every revision.
   */
  readonly versions?: readonly string[];
}

/** Whether `extension` is defined under the revision of wire version `version`. */
export function extensionApplies(extension: ExtensionScope, version: string): boolean {
  return extension.versions === undefined || extension.versions.includes(version);
}

/**
 * `-32021` (Missing Required Client Capability) naming extension `id` in `data.requiredCapabilities.extensions`
 * (basic/index.mdx: a request that needs a capability the client did not declare; extensions/tasks/tasks.md shows the
 * extension form). Throw it from a handler that cannot serve a request without the extension.
 */
export function missingExtensionError(id: string, detail?: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: extension ${id}${detail ? ` (${detail})` : ""}`,
    { requiredCapabilities: { extensions: { [id]: {} } } },
  );
}
