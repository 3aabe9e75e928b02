/** Raw TCP clients for the HTTP hardening tests: exact bytes out, everything the server sends (and when it hangs up) in. */
import { connect, type Socket } from "node:net";

export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as latin1 text (header bytes stay bytes). */
  text(): string;
  /** Resolves once the server has closed the connection (end, reset or close). */
  readonly closed: Promise<void>;
  isClosed(): boolean;
}

export async function rawConnect(port: number): Promise<RawConnection> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => undefined); // a reset is one way of being closed
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      closed = true;
      resolve();
    };
    socket.once("end", finish);
    socket.once("close", finish);
  });
  return { socket, text: () => Buffer.concat(chunks).toString("latin1"), closed: done, isClosed: () => closed };
}

/** Waits until `promise` settles or `ms` pass; true when it settled. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return settled;
}

/** Waits until the received text contains `needle` (or `ms` pass); returns the text. */
export async function receive(connection: RawConnection, needle: string, ms = 3000): Promise<string> {
  const start = Date.now();
  while (!connection.text().includes(needle) && Date.now() - start < ms && !connection.isClosed())
    await new Promise((r) => setTimeout(r, 10));
  return connection.text();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request head for `POST /mcp` with JSON and SSE accepted; `extra` lines go before the blank line. */
export function postHead(port: number, extra: readonly string[] = []): string {
  return [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    ...extra,
    "",
    "",
  ].join("\r\n");
}

/** The status code of the first response in `text`, or 0 when none arrived. */
export function statusOf(text: string): number {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return match ? Number(match[1]) : 0;
}
