/**
 * The pieces a CLI app plugs in: the loopback redirect receiver (a real HTTP callback on 127.0.0.1, driven end
 * to end through oauthFetch) and the token stores (memory; file with 0600 permissions, atomic replace, reload).
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileStore, loopbackAuthorizer, memoryStore, oauthFetch } from "../../../../runtime/auth/index.ts";
import { asMetadata, json, mcpEndpoint, registerRoute, startFake, tokenRoute, type Fake } from "./fixtures/fake-as.ts";

let fake: Fake | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  fake = dir = undefined;
});

describe("loopbackAuthorizer", () => {
  it("serves the redirect on 127.0.0.1 and hands the code to the flow (the 'browser' follows the AS's redirect)", async () => {
    fake = await startFake((f) => ({
      "POST /mcp": mcpEndpoint(),
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    const shown: URL[] = [];
    const loopback = await loopbackAuthorizer({
      // The "browser": open the authorization URL, then follow the AS's redirect to our loopback listener.
      open: async (url) => {
        shown.push(url);
        const redirect = new URL(url.searchParams.get("redirect_uri")!);
        redirect.searchParams.set("code", "c");
        redirect.searchParams.set("state", url.searchParams.get("state")!);
        const page = await fetch(redirect);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/close this window/);
      },
    });
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const oauthed = oauthFetch({ redirectUrl: loopback.redirectUrl, authorize: (url) => loopback.authorize(url) });
      const response = await oauthed(`${fake.origin}/mcp`, { method: "POST", body: "{}" });
      expect(response.status).toBe(200);
      expect(shown).toHaveLength(1);
      const token = new URLSearchParams(fake.seen.find((s) => s.path === "/token")!.body);
      expect([token.get("code"), token.get("redirect_uri")]).toEqual(["c", loopback.redirectUrl]);
      // Other paths on the listener are not the callback.
      expect((await fetch(loopback.redirectUrl.replace("/callback", "/other"))).status).toBe(404);
    } finally {
      await loopback.close();
    }
  });

  it("gives up after its timeout", async () => {
    const loopback = await loopbackAuthorizer({ timeoutMs: 50, open: () => undefined });
    try {
      await expect(loopback.authorize(new URL("https://as.example/authorize"))).rejects.toThrow(
        /no authorization response within 50 ms/,
      );
    } finally {
      await loopback.close();
    }
  });
});

describe("stores", () => {
  it("memory store keeps copies, not the caller's objects", async () => {
    const store = memoryStore();
    const value = { a: { b: 1 } };
    await store.set("k", value);
    value.a.b = 2;
    expect(await store.get("k")).toEqual({ a: { b: 1 } });
    await store.delete("k");
    expect(await store.get("k")).toBeUndefined();
  });

  it("file store: owner-only file, survives a reload, concurrent writes all land, corrupt file starts empty", async () => {
    dir = await mkdtemp(join(tmpdir(), "oauth-store-"));
    const path = join(dir, "nested", "tokens.json");
    const store = fileStore(path);
    await Promise.all([1, 2, 3, 4, 5].map((n) => store.set(`k${n}`, { n })));
    await store.delete("k3");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const reloaded = fileStore(path);
    expect(await reloaded.get("k1")).toEqual({ n: 1 });
    expect(await reloaded.get("k3")).toBeUndefined();
    expect(Object.keys(JSON.parse(await readFile(path, "utf8")) as object).sort()).toEqual(["k1", "k2", "k4", "k5"]);
    await writeFile(path, "{not json");
    const fresh = fileStore(path);
    expect(await fresh.get("k1")).toBeUndefined();
    await fresh.set("x", { y: 1 });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ x: { y: 1 } });
    expect(await fresh.get("__proto__")).toBeUndefined();
  });
});
