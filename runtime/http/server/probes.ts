/**
 * Opt-in probe endpoints (the `health` option) a Kubernetes probe or a load balancer reads: liveness (the process
 * answers) and readiness (it should get traffic: not shutting down, and its shared store answers within a bound).
 * Both answer GET and HEAD with a small JSON body and no-store caching: 200 when fine, 503 when not. They are
 * answered before the Host/Origin check (a probe reaches the pod by its address) and carry nothing about the store
 * but whether it answered; why it did not goes to `onError`.
 */
import type { EndpointState } from "./drain.ts";
import type { StateStore } from "./shared-state.ts";
import { jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

export interface HealthOptions {
  /** Liveness: 200 `{"status":"ok"}` while the process serves HTTP at all, draining included. Default "/health". */
  readonly livePath?: string;
  /**
   * Readiness: 200 `{"status":"ready"}`; 503 `{"status":"draining"}` once a graceful close began, 503
   * `{"status":"unready","store":"unavailable"}` when the shared store did not answer its check in time or refused.
   * Default "/ready".
   */
  readonly readyPath?: string;
  /** The store's check must answer within this many ms. Default 1,000. */
  readonly storeTimeoutMs?: number;
}

const PROBE_HEADERS = { "cache-control": "no-store" } as const;

/** The probe endpoints of one handler. */
export class Probes {
  private readonly livePath: string;
  private readonly readyPath: string;
  private readonly storeTimeoutMs: number;

  constructor(
    options: true | HealthOptions,
    private readonly store: StateStore | undefined,
    private readonly state: () => EndpointState,
    private readonly report: (error: unknown) => void,
  ) {
    const given = options === true ? {} : options;
    this.livePath = given.livePath ?? "/health";
    this.readyPath = given.readyPath ?? "/ready";
    this.storeTimeoutMs = given.storeTimeoutMs ?? 1_000;
  }

  /** The probe's answer, or undefined when the request is not for a probe. */
  answer(request: HttpRequestIn): HttpResponseOut | Promise<HttpResponseOut> | undefined {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    if (request.path === this.livePath) return jsonResponse(200, { status: "ok" }, PROBE_HEADERS);
    if (request.path !== this.readyPath) return undefined;
    if (this.state() !== "serving") return jsonResponse(503, { status: "draining" }, PROBE_HEADERS);
    if (!this.store) return jsonResponse(200, { status: "ready" }, PROBE_HEADERS);
    return this.checkStore(this.store).then(
      () =>
        this.state() === "serving"
          ? jsonResponse(200, { status: "ready" }, PROBE_HEADERS)
          : jsonResponse(503, { status: "draining" }, PROBE_HEADERS),
      (error: unknown) => {
        this.report(error);
        return jsonResponse(503, { status: "unready", store: "unavailable" }, PROBE_HEADERS);
      },
    );
  }

  private async checkStore(store: StateStore): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`readiness: the state store did not answer within ${this.storeTimeoutMs} ms`)),
        this.storeTimeoutMs,
      );
    });
    const check = (async () => {
      await store.ready?.();
      await store.check?.();
    })();
    check.catch(() => undefined); // a check that fails after the bound is not an unhandled rejection
    try {
      await Promise.race([check, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
