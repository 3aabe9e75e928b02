/**
 * The streams of a session shared by several instances: its event store wrapped so every stored message wakes the
 * instance holding the stream, and the `Tailer` that feeds one SSE socket from the store, from a cursor (the SSE
 * event id), so replay and live messages share one ordered write path and a resume elsewhere repeats nothing.
 */
import type { EventStore } from "./event-store.ts";
import type { StateStore } from "./shared-state.ts";
import { messageEvent, type SseStream } from "./sse.ts";

function isAnswer(message: object): boolean {
  return "id" in message && !("method" in message) && ("result" in message || "error" in message);
}

/**
 * Stored after the last answer of a batch POST's stream (never sent): a resumed batch stream ends there, as the
 * original would, rather than at its first answer. A stream of one request ends at its answer.
 */
export const END_OF_STREAM = { "mcp-gen/end": true } as const;
const BATCH_SUFFIX = "-b";

/** The id of a POST's stream: unique across instances, and saying whether it answers a batch. */
export function postStreamId(instanceId: string, counter: number, batch: boolean): string {
  return `${instanceId}-${counter}${batch ? BATCH_SUFFIX : ""}`;
}

/** How a stream ends: a GET stream never, a POST stream at its answer, a batch's at `END_OF_STREAM`. */
export function streamEnd(streamId: string, getStream: string): "never" | "answer" | "marker" {
  if (streamId === getStream) return "never";
  return streamId.endsWith(BATCH_SUFFIX) ? "marker" : "answer";
}

/** One stream of one session fed to an SSE socket from the shared event store, from a cursor. */
export class Tailer {
  private reading = false;
  private again = false;

  constructor(
    readonly streamId: string,
    private cursor: string,
    readonly stream: SseStream,
    private readonly events: EventStore,
    private readonly end: "never" | "answer" | "marker",
    /** Told of a failed read, once per run of failures (the poll retries every second). */
    private readonly report: (error: unknown) => void,
  ) {}
  private failing = false;

  async pump(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    let ended = false;
    try {
      do {
        this.again = false;
        await this.events.replayAfter(this.cursor, (id, message) => {
          if (ended || !this.stream.open) return;
          this.cursor = id;
          if (this.end === "marker" && "mcp-gen/end" in message) {
            ended = true;
            return;
          }
          this.stream.send(messageEvent(id, message));
          if (this.end === "answer" && isAnswer(message)) ended = true;
        });
      } while (this.again && this.stream.open && !ended);
      this.failing = false;
    } catch (error) {
      // the store is unreachable: the next wake or poll tries again from the same cursor
      if (!this.failing) this.report(error);
      this.failing = true;
    } finally {
      this.reading = false;
    }
    if (ended) this.stream.end();
  }
}

/** A session's shared event store; every stored message wakes the instance holding its stream. */
export function sharedEvents(store: StateStore, sessionId: string): EventStore {
  const inner = () => store.events(sessionId);
  const wake = (streamId: string) => store.publish({ type: "wake", session: sessionId, stream: streamId });
  return {
    storeEvent(streamId, message) {
      const id = inner().storeEvent(streamId, message);
      if (message === undefined) return id;
      if (typeof id === "string") {
        wake(streamId);
        return id;
      }
      return id.then((stored) => {
        wake(streamId);
        return stored;
      });
    },
    streamOf: (eventId) => inner().streamOf(eventId),
    replayAfter: (lastEventId, send) => inner().replayAfter(lastEventId, send),
  };
}
