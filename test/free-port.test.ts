/**
 * onFreePort (test/free-port.ts): a start that fails because its port was taken is tried again on another port; any
 * other failure is not. Real sockets: the "taken" port is held by a listener of this test, and the failure is Node's
 * own EADDRINUSE.
 */
import { createServer, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePorts, onFreePort, portTaken } from "./free-port.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listenOn(port: number): Promise<Server> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

describe("onFreePort", () => {
  it("starts again on another port when the one it was given is taken", async () => {
    const blocker = await listenOn(0);
    const taken = (blocker.address() as AddressInfo).port;
    const offered: number[] = [];
    const bound = await onFreePort(async (port) => {
      offered.push(port);
      // The first start meets the race: someone else holds its port by the time it binds.
      const server = await listenOn(offered.length === 1 ? taken : port);
      return (server.address() as AddressInfo).port;
    });
    expect(offered).toHaveLength(2);
    expect(bound).toBe(offered[1]);
    expect(bound).not.toBe(taken);
  });

  it("throws any other failure at once, and the last one when the port is taken every time", async () => {
    let calls = 0;
    await expect(
      onFreePort(() => {
        calls++;
        return Promise.reject(new Error("redis-server exited (1): bad config"));
      }),
    ).rejects.toThrow("bad config");
    expect(calls).toBe(1);
    const blocker = await listenOn(0);
    calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        await listenOn((blocker.address() as AddressInfo).port);
      }, 3),
    ).rejects.toThrow(/EADDRINUSE/);
    expect(calls).toBe(3);
  });

  it("recognizes the programs' words for a taken port, and hands out distinct ports", async () => {
    for (const said of [
      "listen EADDRINUSE: address already in use 127.0.0.1:4000",
      "Could not create server TCP listening socket 127.0.0.1:4000: bind: Address already in use",
      "Failed to start: Port 4000 is already in use.",
    ])
      expect(portTaken(new Error(said)), said).toBe(true);
    expect(portTaken(new Error("connect ECONNREFUSED 127.0.0.1:4000"))).toBe(false);
    const ports = await freePorts(4);
    expect(new Set(ports).size).toBe(4);
  });
});
