/** The client side of the deprecated HTTP+SSE transport (2024-11-05): GET the stream, wait for `endpoint`, POST to it. */
import { HttpError, readSse, type SseCursor } from "./sse.ts";
import { isOk } from "./get-stream.ts";
import type { HttpRequester } from "./requester.ts";

export class LegacySseClient {
  private endpoint: URL | undefined;

  constructor(
    private readonly url: URL,
    private readonly request: HttpRequester,
    private readonly headers: () => Promise<Record<string, string>>,
    private readonly signal: AbortSignal,
  ) {}

  /** Open the stream; resolves once the `endpoint` event arrived. `onMalformed` gets event data that is not JSON. */
  async connect(
    onMessage: (message: object) => void,
    onClosed: (error?: Error) => void,
    onMalformed: (data: string) => void,
  ): Promise<void> {
    const headers = await this.headers();
    headers["accept"] = "text/event-stream";
    const response = await this.request(this.url, { method: "GET", headers, signal: this.signal });
    if (!isOk(response) || !(response.header("content-type") ?? "").includes("text/event-stream")) {
      const text = await response.text().catch(() => "");
      throw new HttpError(response.status, text, response.headers());
    }
    let ready!: () => void;
    let failed!: (error: Error) => void;
    const endpointKnown = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
    const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
    void readSse(response, cursor, {
      onMessage: (data, event) => {
        if (event === "endpoint") {
          const endpoint = new URL(data, this.url);
          // Never POST our messages (and token) to another origin than the one we connected to.
          if (endpoint.origin !== this.url.origin) {
            failed(new Error(`endpoint origin ${endpoint.origin} differs from ${this.url.origin}`));
            return;
          }
          this.endpoint = endpoint;
          ready();
          return;
        }
        if (event !== undefined && event !== "message") return;
        let message: unknown;
        try {
          message = JSON.parse(data);
        } catch {
          return onMalformed(data);
        }
        if (typeof message === "object" && message !== null) onMessage(message);
        else onMalformed(data);
      },
    }).then(
      () => {
        failed(new Error("SSE stream ended before the endpoint event"));
        onClosed();
      },
      (error: unknown) => {
        const err = error instanceof Error ? error : new Error(String(error));
        failed(err);
        onClosed(err);
      },
    );
    await endpointKnown;
  }

  async send(message: object): Promise<void> {
    if (!this.endpoint) throw new Error("legacy SSE transport not connected");
    const headers = await this.headers();
    headers["content-type"] = "application/json";
    const response = await this.request(this.endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      signal: this.signal,
    });
    const text = await response.text();
    if (!isOk(response)) throw new HttpError(response.status, text, response.headers());
  }

  async close(): Promise<void> {
    this.endpoint = undefined;
  }
}
