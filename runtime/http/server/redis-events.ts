/**
 * One session's resumable SSE streams on Redis (`RedisStateStore.events`): each stream a Redis Stream bounded by
 * length (`MAXLEN ~`) and TTL; an event id is `<stream>.<entry id>` (monotonic, unique across instances).
 */
import type { createClient } from "redis";
import type { EventStore } from "./event-store.ts";

type Client = ReturnType<typeof createClient>;

const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;
const STREAM_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface RedisStreams {
  readonly client: () => Client;
  /** Runs commands; maps failures to `StoreUnavailableError`. */
  readonly run: <T>(work: () => Promise<T>) => Promise<T>;
  /** The key of one stream of the session. */
  readonly key: (streamId: string) => string;
  readonly maxLen: number;
  readonly ttlMs: number;
}

/** `<stream>` and `<entry id>` of a well-formed event id, else undefined. */
function parse(eventId: string): { streamId: string; entry: string } | undefined {
  const dot = eventId.indexOf(".");
  const streamId = eventId.slice(0, dot);
  const entry = eventId.slice(dot + 1);
  return dot > 0 && STREAM_ID.test(streamId) && ENTRY_ID.test(entry) ? { streamId, entry } : undefined;
}

export function redisEvents(streams: RedisStreams): EventStore {
  const { client, run, key } = streams;
  return {
    storeEvent(streamId, message) {
      if (!STREAM_ID.test(streamId)) throw new Error(`invalid stream id ${streamId}`);
      return run(async () => {
        const [entry] = (await client()
          .multi()
          // The priming event (no message) only gives the client a cursor; it is stored empty and never replayed.
          .xAdd(
            key(streamId),
            "*",
            { m: message === undefined ? "" : JSON.stringify(message) },
            { TRIM: { strategy: "MAXLEN", strategyModifier: "~", threshold: streams.maxLen } },
          )
          .pExpire(key(streamId), streams.ttlMs)
          .exec()) as unknown as [string];
        return `${streamId}.${entry}`;
      });
    },

    /** The stream of an event id whose stream still exists, else undefined (no replay). */
    async streamOf(eventId) {
      const parsed = parse(eventId);
      if (!parsed) return undefined;
      const exists = await run(() => client().exists(key(parsed.streamId)));
      return exists === 1 ? parsed.streamId : undefined;
    },

    async replayAfter(lastEventId, send) {
      const parsed = parse(lastEventId);
      if (!parsed) return undefined;
      let after = parsed.entry;
      for (;;) {
        const page = (await run(() => client().xRange(key(parsed.streamId), `(${after}`, "+", { COUNT: 500 }))) ?? [];
        for (const entry of page) {
          after = entry.id;
          const text = entry.message["m"];
          if (typeof text === "string" && text !== "")
            send(`${parsed.streamId}.${entry.id}`, JSON.parse(text) as object);
        }
        if (page.length < 500) return parsed.streamId;
      }
    },
  };
}
