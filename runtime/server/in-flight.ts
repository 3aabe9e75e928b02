/** The per-session cap on requests in flight (`ServerOptions.maxRequestsInFlight`). */
import { RpcError, RuntimeErrorCode } from "../jsonrpc/errors.ts";

export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 256;

/** Counts one session's requests whose handlers run; a request whose client hung up counts until its handler settles. */
export class InFlight {
  private running = 0;
  private readonly settled = () => void this.running--;

  /** `host.options.maxRequestsInFlight` is read per request (undefined: the default). */
  constructor(private readonly host: { readonly options: { readonly maxRequestsInFlight?: number | undefined } }) {}

  /** Starts `handle(request)` as one more request in flight, or throws -31429 when the limit already run. */
  run<R, T>(handle: (request: R) => T | Promise<T>, request: R): T | Promise<T> {
    const limit = this.host.options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT;
    if (this.running >= limit) {
      throw new RpcError(
        RuntimeErrorCode.TooManyRequestsInFlight,
        `Too many requests in flight: this session runs at most ${limit} at once; retry when some have finished`,
        { limit },
      );
    }
    const outcome = handle(request);
    if (!(outcome instanceof Promise)) return outcome;
    this.running++;
    void outcome.then(this.settled, this.settled);
    return outcome;
  }
}
