/**
 * Stateless-era `subscriptions/listen` streams of one session (basic/patterns/subscriptions.mdx): the server agrees
 * to the subset of the filter it supports, acknowledges first, tags every notification with the subscription id,
 * and ends streams gracefully with a result when the session closes.
 */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { SubscriptionFilter } from "../protocol/builtin-types.ts";
import { hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import { MetaKey } from "../protocol/meta.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";

/** Sends a notification related to a stream; `extension`: one of an extension's, agreed by the stream itself. */
type Send = (
  profile: RevisionProfile,
  method: string,
  params: Record<string, unknown>,
  related: JsonRpcId,
  extension: boolean,
) => void;

interface Stream {
  readonly filter: SubscriptionFilter;
  readonly profile: RevisionProfile;
  readonly end: () => void;
}

export class ListenStreams {
  private readonly streams = new Map<JsonRpcId, Stream>();

  constructor(private readonly send: Send) {}

  /** Opens a stream; the promise resolves with the graceful-end result when `endAll` runs. */
  open(
    id: JsonRpcId,
    requested: SubscriptionFilter,
    capabilities: Capabilities,
    profile: RevisionProfile,
    signal: AbortSignal,
    extensions?: Readonly<Record<string, unknown>>,
  ) {
    const agreed: { -readonly [K in keyof SubscriptionFilter]: SubscriptionFilter[K] } = {};
    if (requested.toolsListChanged && hasCapability(capabilities, ["tools", "listChanged"]))
      agreed.toolsListChanged = true;
    if (requested.promptsListChanged && hasCapability(capabilities, ["prompts", "listChanged"]))
      agreed.promptsListChanged = true;
    if (requested.resourcesListChanged && hasCapability(capabilities, ["resources", "listChanged"]))
      agreed.resourcesListChanged = true;
    if (requested.resourceSubscriptions && hasCapability(capabilities, ["resources", "subscribe"])) {
      agreed.resourceSubscriptions = [...requested.resourceSubscriptions];
    }
    if (extensions) Object.assign(agreed, extensions); // what extensions agreed to of their own filter fields
    const meta = { [MetaKey.subscriptionId]: id };
    this.send(profile, "notifications/subscriptions/acknowledged", { _meta: meta, notifications: agreed }, id, false);
    return new Promise<Record<string, unknown>>((resolve) => {
      const end = () => {
        this.streams.delete(id);
        resolve({ _meta: meta });
      };
      this.streams.set(id, { filter: agreed, profile, end });
      // Cancelled by the client (or its HTTP stream closed): settle so the request is released; no response is sent.
      signal.addEventListener("abort", end, { once: true });
    });
  }

  listChanged(kind: "tools" | "resources" | "prompts"): void {
    const flag = `${kind}ListChanged` as const;
    for (const [id, stream] of this.streams) {
      if (stream.filter[flag])
        this.send(
          stream.profile,
          `notifications/${kind}/list_changed`,
          { _meta: { [MetaKey.subscriptionId]: id } },
          id,
          false,
        );
    }
  }

  resourceUpdated(uri: string): void {
    for (const [id, stream] of this.streams) {
      if (stream.filter.resourceSubscriptions?.includes(uri)) {
        this.send(
          stream.profile,
          "notifications/resources/updated",
          { uri, _meta: { [MetaKey.subscriptionId]: id } },
          id,
          false,
        );
      }
    }
  }

  /** An extension's notification on stream `id` while it is open (the extension decided it was agreed). */
  sendOn(id: JsonRpcId, method: string, params: Record<string, unknown>): void {
    const stream = this.streams.get(id);
    if (stream) this.send(stream.profile, method, { ...params, _meta: { [MetaKey.subscriptionId]: id } }, id, true);
  }

  /** Ends every stream with its graceful result; false when there was none. */
  endAll(): boolean {
    if (this.streams.size === 0) return false;
    for (const stream of [...this.streams.values()]) stream.end();
    return true;
  }

  /** The connection is gone: forget the streams (no result can be sent). */
  clear(): void {
    this.streams.clear();
  }
}
