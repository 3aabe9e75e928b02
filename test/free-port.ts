/**
 * Ports for programs that must be told one (redis-server, server-everything, workerd): the kernel picks a free port,
 * the probe closes it, and the program binds it a moment later. Another process can take the port in between (many
 * tests start servers at once), so `onFreePort` starts the program again on a new port when it failed because the
 * port was taken. Programs that accept port 0 and print the port they bound should do that instead.
 */
import { createServer, type AddressInfo } from "node:net";

/** A loopback port that was free a moment ago (the kernel's pick for port 0). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** `count` distinct loopback ports that were free a moment ago (every probe is open before any closes). */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer());
  await Promise.all(
    probes.map(
      (probe) =>
        new Promise<void>((resolve, reject) => {
          probe.once("error", reject);
          probe.listen(0, "127.0.0.1", resolve);
        }),
    ),
  );
  const ports = probes.map((probe) => (probe.address() as AddressInfo).port);
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

/** What programs print when the port they were given is taken (Node's EADDRINUSE, Redis's and workerd's words). */
const PORT_TAKEN = /EADDRINUSE|address already in use|already in use|address in use/i;

/** Whether `error` (its message, which the starters fill with the program's output) says the port was taken. */
export function portTaken(error: unknown): boolean {
  return PORT_TAKEN.test(error instanceof Error ? error.message : String(error));
}

/**
 * `start(port)` on a free port; when it rejects because the port was taken meanwhile, again on another one (at most
 * `attempts` times). Any other failure, or the last one, is thrown as it is.
 */
export function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  return onFreePorts(1, ([port]) => start(port!), attempts);
}

/** `onFreePort` for a program that binds `count` ports (all picked again when one was taken). */
export async function onFreePorts<T>(
  count: number,
  start: (ports: readonly number[]) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(count);
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= attempts || !portTaken(error)) throw error;
    }
  }
}
