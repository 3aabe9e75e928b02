/**
 * Resumability for handshake-era Streamable HTTP (2025-03-26 … 2025-11-25): every SSE event a session sends
 * gets an id that names its stream, so a client reconnecting with `Last-Event-ID` gets the rest of *that*
 * stream and never another's. Plug in a shared store (Redis, a database) to resume across processes.
 */

export interface EventStore {
  /**
   * Store a message sent on `streamId` and return its event id (unique within the session). `undefined` is the
   * priming event that opens a stream: it needs an id (a cursor) but is never replayed.
   */
  storeEvent(streamId: string, message: object | undefined): Promise<string> | string;
  /** The stream an event id belongs to, or undefined if unknown/expired. */
  streamOf(eventId: string): Promise<string | undefined> | string | undefined;
  /** Replay, in order, every event stored on the same stream after `lastEventId`. Returns that stream id. */
  replayAfter(
    lastEventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<string | undefined> | string | undefined;
  /** The session is gone: free everything it stored. */
  forgetSession?(): void;
}

interface StoredEvent {
  readonly id: string;
  readonly streamId: string;
  readonly message: object | undefined;
}

/**
 * One store per session, in memory, bounded: keeps the last `maxEvents` events so a slow or vanished client
 * never makes the server hold more than that. Event ids are `<streamId>.<sequence>`.
 */
export class InMemoryEventStore implements EventStore {
  private events: StoredEvent[] = [];
  private sequence = 0;

  constructor(private readonly maxEvents = 256) {}

  storeEvent(streamId: string, message: object | undefined): string {
    const id = `${streamId}.${++this.sequence}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
    return id;
  }

  streamOf(eventId: string): string | undefined {
    const dot = eventId.lastIndexOf(".");
    if (dot <= 0) return undefined;
    const sequence = Number(eventId.slice(dot + 1));
    return Number.isSafeInteger(sequence) && sequence > 0 && sequence <= this.sequence
      ? eventId.slice(0, dot)
      : undefined;
  }

  replayAfter(lastEventId: string, send: (eventId: string, message: object) => void): string | undefined {
    const streamId = this.streamOf(lastEventId);
    if (streamId === undefined) return undefined;
    const after = Number(lastEventId.slice(lastEventId.lastIndexOf(".") + 1));
    for (const event of this.events) {
      if (event.streamId !== streamId) continue;
      if (event.message && Number(event.id.slice(event.id.lastIndexOf(".") + 1)) > after) send(event.id, event.message);
    }
    return streamId;
  }

  forgetSession(): void {
    this.events = [];
  }

  get size(): number {
    return this.events.length;
  }
}
