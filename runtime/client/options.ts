/** What a client is configured with (`McpClient`'s constructor argument). */
import type { LogLevel } from "../protocol/meta.ts";
import type { RevisionDescriptor } from "../protocol/method-type.ts";
import type { Implementation } from "../protocol/builtin-types.ts";
import type { ClientExtension } from "./extensions.ts";
import type { ClientHandlers } from "./handlers.ts";

export interface ClientOptions {
  readonly info: Implementation;
  /**
   * Acceptable revisions, as descriptors: `builtinRevisions` (every built-in one), a built-in's `revision` export
   * (`@mcp-gen/runtime/protocol/<name>`) or a `mcp-gen protocol` folder's. The most preferred mutually supported one
   * is used (preference order: protocol/preference.ts); negotiation compares the descriptors' wire `version`s.
   */
  readonly revisions: readonly RevisionDescriptor[];
  /** Extra capabilities merged over those implied by `handlers` and `extensions`. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly handlers?: ClientHandlers;
  /** Extensions this client supports; their methods become usable once the server negotiates them. */
  readonly extensions?: readonly ClientExtension[];
  /** Default per-request timeout (60 000 ms). */
  readonly requestTimeoutMs?: number;
  /**
   * How long the `server/discover` probe waits before assuming a handshake-era server and sending `initialize` (default
   * 5000 ms; over transports that answer every request, such as HTTP, the request timeout). Giving up is reported
   * through `onDiagnostic`. The probe keeps listening afterwards: when a slow-starting stdio server answers it while
   * `initialize` is under way, the server is started again and probed with the request timeout.
   */
  readonly probeTimeoutMs?: number;
  /** Most multi round-trip rounds for one call before giving up (default 8). */
  readonly maxInputRounds?: number;
  /** Stateless era: sent as `_meta["io.modelcontextprotocol/logLevel"]` on every request (no logs otherwise). */
  readonly logLevel?: LogLevel;
  /** Every server notification after validation (progress and cancellation are handled internally). */
  readonly onNotification?: (method: string, params: unknown) => void;
  readonly onDiagnostic?: (message: string) => void;
  /** Called when the connection closes; `error` says why when it was not `close()`. */
  readonly onClose?: (error?: Error) => void;
}
