/**
 * What a method implementation is given (`MethodEnv`: the server definition, the session, the revision, the
 * request's context and params) and what it is (`MethodImpl`). A leaf: the built-in methods (`methods.ts`) and the
 * session that runs them read it.
 */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { SubscriptionFilter } from "../protocol/builtin-types.ts";
import type { Capabilities } from "../protocol/capabilities.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import type { RequestContext } from "./context.ts";
import type {
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
  ServerOptions,
} from "./options.ts";
import type { ListenAddition, ServerFeature } from "./extension.ts";

type Result = Record<string, unknown>;

/** What the built-in methods read of the server definition (`ServerDefinition` is one). */
export interface MethodServer {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly resources: ReadonlyMap<string, RegisteredResource>;
  readonly templates: ReadonlyMap<string, RegisteredTemplate>;
  readonly prompts: ReadonlyMap<string, RegisteredPrompt>;
  /** Wire versions served, newest first. */
  readonly versions: readonly string[];
  /** The server's capabilities (under the revision of wire version `version`, when given). */
  capabilities(version?: string): Capabilities;
  readonly options: Pick<ServerOptions, "pageSize" | "instructions" | "maxSubscriptionsPerSession">;
  /** What the served extensions add to the built-in methods. */
  readonly features: readonly ServerFeature[];
}

/** What the built-in methods ask of the session serving the request. */
export interface MethodSession {
  /** Records the subscription; false (nothing changed) when the session already holds `limit` others. */
  subscribe(uri: string, limit: number): boolean;
  unsubscribe(uri: string): void;
  setLogLevel(level: unknown): void;
  listen(
    id: JsonRpcId,
    requested: SubscriptionFilter,
    signal: AbortSignal,
    profile: RevisionProfile,
    additions: readonly ListenAddition[],
  ): Promise<Result>;
}

export interface MethodEnv {
  readonly server: MethodServer;
  readonly session: MethodSession;
  readonly profile: RevisionProfile;
  readonly context: RequestContext;
  readonly requestId: JsonRpcId;
  readonly params: Readonly<Record<string, unknown>>;
}
/** What the server does for one method (built in, or a handler registered by token). */
export type MethodImpl = (env: MethodEnv) => Result | Promise<Result>;
