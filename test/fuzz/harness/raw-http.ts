/**
 * HTTP/1.1 over a bare socket: the abuse tests need bytes no HTTP client sends (odd header bytes, lies about
 * lengths, slow or unfinished bodies) and need to see whether the server closes the connection.
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  readonly status: number;
  /** The header block as received (latin1), to check what the server put in its headers. */
  readonly head: string;
  readonly body: string;
  /** The server closed (or reset) the connection after answering, before `timeoutMs`. */
  readonly closedByServer: boolean;
}

/** `localAddress`: connect from another loopback address (127.0.0.2 …), i.e. as another client. */
export function openSocket(port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", ...(localAddress ? { localAddress } : {}) }, () =>
      resolve(socket),
    );
    socket.once("error", reject);
  });
}

/** A request head: method, path, headers (values written as latin1 bytes, unchecked), and the blank line. */
export function head(method: string, path: string, port: number, headers: Record<string, string>): Buffer {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

/**
 * Read one response from `socket` (after the caller wrote the request). Resolves when the response is complete
 * and either the server closed the socket or `lingerMs` passed (so `closedByServer` says which).
 */
export function readResponse(socket: Socket, timeoutMs = 10_000, lingerMs = 0): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    let done = false;
    let complete: { status: number; head: string; body: string } | undefined;
    let linger: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (linger) clearTimeout(linger);
      if (!complete)
        return reject(new Error(`no complete response (closed: ${closed}): ${data.toString("latin1").slice(0, 300)}`));
      resolve({ ...complete, closedByServer: closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    const parse = () => {
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      const headText = data.subarray(0, end).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(headText)?.[1] ?? 0);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText)?.[1];
      const rest = data.subarray(end + 4);
      if (length !== undefined && rest.length >= Number(length))
        complete = { status, head: headText, body: rest.subarray(0, Number(length)).toString("utf8") };
      else if (length === undefined && /\r\ntransfer-encoding:\s*chunked/i.test(headText)) {
        if (rest.includes("\r\n0\r\n\r\n") || rest.subarray(0, 5).toString() === "0\r\n\r\n")
          complete = { status, head: headText, body: rest.toString("utf8") };
      } else if (length === undefined) complete = { status, head: headText, body: rest.toString("utf8") };
      if (complete && !linger) linger = setTimeout(() => finish(false), lingerMs);
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (!complete) parse();
    });
    socket.once("close", () => {
      if (!complete) parse();
      finish(true);
    });
    socket.once("error", () => undefined); // a reset shows up as "close"
  });
}

/** One request on a fresh connection (`Connection: close`), answered in full. */
export async function rawRequest(
  port: number,
  request: Buffer,
  timeoutMs = 10_000,
  localAddress?: string,
): Promise<RawResponse> {
  const socket = await openSocket(port, localAddress);
  const response = readResponse(socket, timeoutMs, timeoutMs);
  socket.write(request);
  try {
    return await response;
  } finally {
    socket.destroy();
  }
}

/** Only visible ASCII and spaces: what a header built from untrusted text may contain after filtering. */
export const HEADER_SAFE = /^[\x20-\x7e\t]*$/;
