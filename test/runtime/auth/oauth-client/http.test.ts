/**
 * The OAuth client's one door to the network (runtime/auth/oauth-client/http.ts) and its challenge and URL rules
 * (discovery.ts): which hosts count as loopback, the exact size limits, the timeout, what an error message shows of
 * hostile text, which challenge parameters are read. Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { checkUrl, guardedFetch, jsonBody, printable } from "../../../../runtime/auth/oauth-client/http.ts";
import { isUnder, libStep, parseBearerChallenge } from "../../../../runtime/auth/oauth-client/discovery.ts";
import { OAuthClientError } from "../../../../runtime/auth/index.ts";
import { clientError } from "./oauth-harness.ts";

describe("which URLs the client talks OAuth to", () => {
  it("plain http only to loopback hosts: localhost, 127.0.0.0/8, [::1], *.localhost", () => {
    for (const ok of [
      "http://localhost:8080/x",
      "http://127.0.0.1/x",
      "http://127.200.3.4/x",
      "http://127.0.10.20/x",
      "http://[::1]:9/x",
      "http://app.localhost/x",
      "https://as.example/x",
    ])
      expect(checkUrl(ok, "test").href).toBe(new URL(ok).href);
    for (const bad of [
      "http://as.example/x",
      "http://localhost.evil.example/x",
      "http://evillocalhost/x",
      "http://127.0.0.1.evil.example/x",
      "http://10.0.0.1/x",
      "ftp://localhost/x",
    ]) {
      let error: unknown;
      try {
        checkUrl(bad, "the AS");
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(OAuthClientError);
      expect((error as OAuthClientError).code).toBe("insecure_url");
      expect((error as OAuthClientError).message).toBe(
        `the AS: refusing ${new URL(bad).href} (OAuth needs https; plain http only for loopback hosts)`,
      );
    }
  });

  it("refuses URLs carrying a user name or a password alone, and says when text is not a URL at all", () => {
    for (const withCredentials of ["https://user@as.example/", "https://:pw@as.example/"])
      expect(() => checkUrl(withCredentials, "the AS")).toThrow(
        expect.objectContaining({ code: "invalid_metadata", message: "the AS: URL must not carry credentials" }),
      );
    expect(() => checkUrl("not a url\n", "the AS")).toThrow(
      expect.objectContaining({ code: "invalid_metadata", message: "the AS: not a valid URL: not a url?" }),
    );
  });

  it("shows hostile text with control characters replaced and at most 120 characters (then …)", () => {
    expect(printable("a\u0000b\u001fc\u007fd\u009fe\u00a0f")).toBe("a?b?c?d?e\u00a0f");
    expect(printable("x".repeat(120))).toBe("x".repeat(120));
    expect(printable("x".repeat(121))).toBe(`${"x".repeat(120)}…`);
    expect(printable("abcdef", 3)).toBe("abc…");
  });
});

/** A base fetch answering `body` with the given headers, recording what it was asked with. */
function base(body: BodyInit | null, init: ResponseInit = {}) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = ((url: string, requestInit?: RequestInit) => {
    calls.push({ url, init: requestInit });
    return Promise.resolve(new Response(body, init));
  }) as typeof fetch;
  return { calls, fetchImpl };
}

/** A body streamed in chunks of the given sizes, with no content-length. */
const streamed = (...sizes: number[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const size of sizes) controller.enqueue(new Uint8Array(size).fill(120));
      controller.close();
    },
  });

describe("guardedFetch", () => {
  it("never follows redirects and hands back the 3xx itself", async () => {
    const { calls, fetchImpl } = base(null, { status: 302, headers: { location: "http://evil.example/" } });
    const response = await guardedFetch(fetchImpl)("https://as.example/meta", { method: "GET" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://evil.example/");
    expect(calls.map((c) => [c.url, c.init?.redirect])).toEqual([["https://as.example/meta", "manual"]]);
  });

  it("reads a body of exactly the limit and refuses one byte more, declared or streamed", async () => {
    const limits = { maxResponseBytes: 10 };
    const exact = await guardedFetch(
      base("0123456789", { headers: { "content-length": "10" } }).fetchImpl,
      limits,
    )("https://as.example/a");
    expect(await exact.text()).toBe("0123456789");
    const declared = await clientError(
      guardedFetch(
        base("01234567890", { headers: { "content-length": "11" } }).fetchImpl,
        limits,
      )("https://as.example/a"),
    );
    expect([declared.code, declared.message]).toEqual([
      "response_too_large",
      "https://as.example/a: response too large (11 bytes, limit 10)",
    ]);
    // A declared size alone is enough (a HEAD-like answer without a body).
    const bodiless = await clientError(
      guardedFetch(base(null, { headers: { "content-length": "11" } }).fetchImpl, limits)("https://as.example/a"),
    );
    expect(bodiless.code).toBe("response_too_large");
    const chunked = await guardedFetch(base(streamed(4, 6)).fetchImpl, limits)("https://as.example/a");
    expect((await chunked.arrayBuffer()).byteLength).toBe(10);
    const over = await clientError(guardedFetch(base(streamed(4, 6, 1)).fetchImpl, limits)("https://as.example/a"));
    expect([over.code, over.message]).toEqual([
      "response_too_large",
      "https://as.example/a: response too large (over 10 bytes)",
    ]);
  });

  it("defaults to a 256 KiB limit", async () => {
    const fits = await guardedFetch(base(streamed(256 * 1024)).fetchImpl)("https://as.example/a");
    expect((await fits.arrayBuffer()).byteLength).toBe(256 * 1024);
    const error = await clientError(guardedFetch(base(streamed(256 * 1024, 1)).fetchImpl)("https://as.example/a"));
    expect(error.message).toContain(`over ${256 * 1024} bytes`);
  });

  it("passes 204 and 304 through with no body", async () => {
    for (const status of [204, 304]) {
      const response = await guardedFetch(base(null, { status }).fetchImpl)("https://as.example/a");
      expect([response.status, await response.text()]).toEqual([status, ""]);
    }
  });

  it("gives up after its timeout, naming the method and the URL", async () => {
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      )) as typeof fetch;
    const error = await clientError(
      guardedFetch(hanging, { timeoutMs: 30 })("https://as.example/token", { method: "POST" }),
    );
    expect([error.code, error.message]).toEqual([
      "authorization_failed",
      "POST https://as.example/token failed: timed out after 30 ms",
    ]);
  });

  it("reports a failing fetch with its message (GET when no method is given), and honours the caller's signal", async () => {
    const refused = new Error("connection refused");
    const failing = (() => Promise.reject(refused)) as typeof fetch;
    const error = await clientError(guardedFetch(failing)("https://as.example/meta"));
    expect(error.message).toBe("GET https://as.example/meta failed: connection refused");
    expect(error.cause).toBe(refused);
    const insecure = await clientError(guardedFetch(failing)("http://as.example/meta"));
    expect([insecure.code, insecure.message]).toEqual([
      "insecure_url",
      "OAuth request: refusing http://as.example/meta (OAuth needs https; plain http only for loopback hosts)",
    ]);
    const thrower = (() => Promise.reject("a string")) as typeof fetch;
    expect((await clientError(guardedFetch(thrower)("https://as.example/meta"))).message).toBe(
      "GET https://as.example/meta failed: a string",
    );
    const caller = new AbortController();
    const seen: AbortSignal[] = [];
    const watching = ((_url: string, init?: RequestInit) => {
      seen.push(init!.signal!);
      return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("stop"))));
    }) as typeof fetch;
    const pending = clientError(guardedFetch(watching)("https://as.example/meta", { signal: caller.signal }));
    caller.abort();
    expect((await pending).message).toBe("GET https://as.example/meta failed: stop");
    expect(seen[0]!.aborted).toBe(true);
  });
});

describe("jsonBody", () => {
  const parse = (body: string, type?: string) =>
    clientError(jsonBody(new Response(body, type ? { headers: { "content-type": type } } : {}), "the doc"));

  it("names HTML by its content type or its first character, and other non-JSON by its content type", async () => {
    expect((await parse("oops", "text/HTML")).message).toBe('the doc: expected JSON, got HTML: "oops"');
    expect((await parse("  <p>hi", "text/plain")).message).toBe('the doc: expected JSON, got HTML: "  <p>hi"');
    expect((await parse("oops <b>", "text/plain")).message).toBe(
      'the doc: expected JSON, got non-JSON (text/plain): "oops <b>"',
    );
    expect((await parse("oops", "text/plain")).message).toBe(
      'the doc: expected JSON, got non-JSON (text/plain): "oops"',
    );
    const untyped = new Response(new Blob(["oops"]));
    const error = await clientError(jsonBody(untyped, "the doc"));
    expect(error.message).toBe('the doc: expected JSON, got non-JSON (no content-type): "oops"');
    expect((await parse("x".repeat(61), "text/plain")).message).toContain(`"${"x".repeat(60)}…"`);
  });

  it("accepts only a JSON object", async () => {
    for (const body of ["[]", "null", "3", '"s"'])
      expect(await parse(body, "application/json")).toMatchObject({
        code: "invalid_metadata",
        message: "the doc: expected a JSON object",
      });
    await expect(jsonBody(new Response('{"a":1}'), "the doc")).resolves.toEqual({ a: 1 });
  });
});

describe("challenges and resource paths", () => {
  it("reads error, scope and resource_metadata of a Bearer challenge, and nothing that is absent", async () => {
    expect(
      await parseBearerChallenge(
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://rs.example/prm"',
      ),
    ).toStrictEqual({ error: "insufficient_scope", scope: "a b", resourceMetadata: "https://rs.example/prm" });
    expect(await parseBearerChallenge('Bearer realm="mcp"')).toStrictEqual({});
    expect(await parseBearerChallenge(null)).toBeUndefined();
    expect(await parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });

  it("marks a DPoP challenge, preferring the Bearer challenge's parameters when both are offered", async () => {
    expect(await parseBearerChallenge('DPoP algs="ES256", Bearer scope="s"')).toStrictEqual({ dpop: true, scope: "s" });
    expect(await parseBearerChallenge('DPoP error="use_dpop_nonce"')).toStrictEqual({
      dpop: true,
      error: "use_dpop_nonce",
    });
  });

  it("a resource covers its own path and below, on its origin only", () => {
    const resource = new URL("https://rs.example/mcp/");
    expect(isUnder(new URL("https://rs.example/mcp"), resource)).toBe(true);
    expect(isUnder(new URL("https://rs.example/mcp/x"), resource)).toBe(true);
    expect(isUnder(new URL("https://rs.example/mcpx"), resource)).toBe(false);
    expect(isUnder(new URL("https://rs.example/"), resource)).toBe(false);
    expect(isUnder(new URL("https://rs.example:444/mcp"), resource)).toBe(false);
    expect(isUnder(new URL("https://rs.example/anything"), new URL("https://rs.example"))).toBe(true);
    expect(isUnder(new URL("https://rs.example/mcp"), new URL("https://rs.example/mcp//"))).toBe(true);
  });

  it("turns library errors into OAuthClientErrors: the AS's error code and description, or the message", async () => {
    const response = new Response(JSON.stringify({ error: "invalid_grant", error_description: "expired" }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
    const as = { issuer: "https://as.example", token_endpoint: "https://as.example/token" };
    const fromAs = await clientError(
      libStep("the step", "token_request_failed", () =>
        oauth.processGenericTokenEndpointResponse(as, { client_id: "c" }, response),
      ),
    );
    expect([fromAs.code, fromAs.message]).toEqual(["token_request_failed", "the step: invalid_grant: expired"]);
    expect(fromAs.cause).toBeInstanceOf(oauth.ResponseBodyError);
    // An AS error that merely mentions a resource is not a resource mismatch.
    const target = new Response(JSON.stringify({ error: "invalid_target", error_description: "unknown resource" }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
    const invalidTarget = await clientError(
      libStep("the step", "token_request_failed", () =>
        oauth.processGenericTokenEndpointResponse(as, { client_id: "c" }, target),
      ),
    );
    expect(invalidTarget.code).toBe("token_request_failed");
    const bare = new Response(JSON.stringify({ error: "invalid_grant" }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
    const noDescription = await clientError(
      libStep("the step", "token_request_failed", () =>
        oauth.processGenericTokenEndpointResponse(as, { client_id: "c" }, bare),
      ),
    );
    expect(noDescription.message).toBe("the step: invalid_grant");
    const plain = await clientError(
      libStep("the step", "registration_failed", () => Promise.reject(new Error("x\ny"))),
    );
    expect([plain.code, plain.message]).toEqual(["registration_failed", "the step: x?y"]);
    expect((await clientError(libStep("s", "registration_failed", () => Promise.reject(42)))).message).toBe("s: 42");
    const own = new OAuthClientError("mine", "insecure_url");
    await expect(libStep("s", "registration_failed", () => Promise.reject(own))).rejects.toBe(own);
    expect(await libStep("s", "registration_failed", () => 7)).toBe(7);
  });
});
