/**
 * The loopback receiver of the authorization code (runtime/auth/oauth-client/loopback.ts): it listens on the given
 * port and path only (GET), prints the URL on stderr by default, answers other paths with a plain 404, survives an
 * early callback, and closes. Real loopback sockets.
 */
import { createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { loopbackAuthorizer } from "../../../../runtime/auth/index.ts";

describe("loopbackAuthorizer", () => {
  it("listens on the given path only (GET), and by default prints the URL on stderr", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const loopback = await loopbackAuthorizer({ path: "/done" });
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/done$/);
      const received = loopback.authorize(new URL("https://as.example/authorize?x=1"));
      await vi.waitFor(() => expect(write).toHaveBeenCalled());
      expect(write.mock.calls[0]![0]).toBe("Open this URL to authorize:\n  https://as.example/authorize?x=1\n");
      expect((await fetch(`${loopback.redirectUrl}?code=no`, { method: "POST" })).status).toBe(404);
      expect((await fetch(loopback.redirectUrl.replace("/done", "/callback"))).status).toBe(404);
      const page = await fetch(`${loopback.redirectUrl}?code=c1&state=s1`);
      expect([page.status, page.headers.get("cache-control"), page.headers.get("content-type")]).toEqual([
        200,
        "no-store",
        "text/html; charset=utf-8",
      ]);
      expect(Object.fromEntries(await received)).toEqual({ code: "c1", state: "s1" });
    } finally {
      write.mockRestore();
      await loopback.close();
    }
  });
});

describe("loopbackAuthorizer's listener", () => {
  it("uses the port given, answers other paths with a plain 404, survives an early callback, and closes", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await expect(loopbackAuthorizer({ port, open: () => undefined })).rejects.toMatchObject({ code: "EADDRINUSE" });
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const loopback = await loopbackAuthorizer({ port, open: () => undefined });
    expect(loopback.redirectUrl).toBe(`http://127.0.0.1:${port}/callback`);
    const missing = await fetch(`http://127.0.0.1:${port}/elsewhere`);
    expect([missing.status, missing.headers.get("content-type"), await missing.text()]).toEqual([
      404,
      "text/plain",
      "not found",
    ]);
    // Bound to 127.0.0.1 only (RFC 8252 §7.3): another loopback address, like any other interface, reaches nothing.
    await expect(fetch(`http://127.0.0.2:${port}/callback`)).rejects.toThrow();
    // A callback nobody waits for yet is answered, and the listener keeps working.
    expect((await fetch(`${loopback.redirectUrl}?code=early`)).status).toBe(200);
    const received = loopback.authorize(new URL("https://as.example/authorize"));
    await fetch(`${loopback.redirectUrl}?code=c2`);
    expect((await received).get("code")).toBe("c2");
    await loopback.close();
    await expect(fetch(loopback.redirectUrl)).rejects.toThrow();
  });
});
