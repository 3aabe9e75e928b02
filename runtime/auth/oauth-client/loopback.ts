/**
 * The redirect side of the authorization code flow for CLI apps (RFC 8252 §7.3): a one-shot HTTP listener on
 * 127.0.0.1 receives the authorization response; the URL to open is printed (or handed to `open`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackOptions {
  /** Port on 127.0.0.1 (default 0: any free port; fix it when the AS needs an exact registered redirect URI). */
  readonly port?: number;
  /** Path of the redirect URI (default "/callback"). */
  readonly path?: string;
  /** Show the URL to the user, e.g. open a browser. Default: print it on stderr. */
  readonly open?: (url: URL) => void | Promise<void>;
  /** Give up waiting for the browser after this many ms (default 5 minutes). */
  readonly timeoutMs?: number;
}

export interface LoopbackAuthorizer {
  /** `http://127.0.0.1:<port><path>`: use as the provider's `redirectUrl`. */
  readonly redirectUrl: string;
  /** The provider's `authorize`: shows the URL, resolves with the callback's query parameters. */
  authorize(url: URL): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PAGE =
  "<!doctype html><meta charset=utf-8><title>Authorization</title><p>Authorization received. You can close this window.</p>";

export async function loopbackAuthorizer(options: LoopbackOptions = {}): Promise<LoopbackAuthorizer> {
  const path = options.path ?? "/callback";
  let waiting: { resolve: (params: URLSearchParams) => void } | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== path) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(PAGE);
    waiting?.resolve(url.searchParams);
    waiting = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  const show =
    options.open ?? ((url: URL) => void process.stderr.write(`Open this URL to authorize:\n  ${url.href}\n`));
  return {
    redirectUrl,
    async authorize(url) {
      const timeoutMs = options.timeoutMs ?? 300_000;
      const received = new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no authorization response within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting = {
          resolve: (params) => {
            clearTimeout(timer);
            resolve(params);
          },
        };
      });
      await show(url);
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
