/**
 * HTTP abuse as properties: foreign Host/Origin values (403, DNS-rebinding protection), and session requests with
 * exactly one wrong header (Accept 406, Content-Type 415, MCP-Protocol-Version 400, unknown session 404, missing
 * session 400), each followed by a correct request that must still succeed.
 */
import fc from "fast-check";
import { HEAP_SLACK_BYTES, type ServerProcess } from "../harness/process.ts";
import { postFrame, POST_HEADERS } from "../harness/peers.ts";
import { head, rawRequest } from "../harness/raw-http.ts";
import type { RunOptions } from "./frames.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const INIT = (version: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "abuse", version: "1" } },
  });

/** Open a handshake-era session with raw HTTP; returns its id. */
export async function openSession(url: string, version = "2025-11-25"): Promise<string> {
  const init = await postFrame(url, INIT(version), {});
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !id) throw new Error(`initialize: HTTP ${init.status} ${init.text.slice(0, 200)}`);
  const ack = await postFrame(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
    "mcp-session-id": id,
    "mcp-protocol-version": version,
  });
  if (ack.status !== 202) throw new Error(`notifications/initialized: HTTP ${ack.status}`);
  return id;
}

/** The host part of a Host header value, as RFC 9110 reads it (port cut, case folded). */
function hostOf(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith("[")) return v.slice(0, v.indexOf("]") + 1);
  return v.split(":")[0]!;
}

/** Foreign and own Host/Origin pairs → 403 unless the Host is loopback and the Origin (if any) is the same origin. */
export async function hostAndOrigin(server: ServerProcess, options: RunOptions): Promise<void> {
  const port = Number(new URL(server.url).port);
  const hostArb = fc.oneof(
    fc.constantFrom(...LOOPBACK).map((h) => `${h}:${port}`),
    fc.constantFrom(...LOOPBACK),
    fc.domain(),
    fc.domain().map((d) => `${d}:${port}`),
    fc.ipV4().map((ip) => `${ip}:${port}`),
    fc.constantFrom(
      "localhost.evil.com",
      "127.0.0.1.nip.io",
      "LOCALHOST",
      `localhost:${port}@evil.com`,
      "0.0.0.0",
      "[::ffff:127.0.0.1]",
    ),
  );
  const originArb = fc.option(
    fc.oneof(
      fc.webUrl().map((u) => new URL(u).origin),
      fc.constantFrom(
        "null",
        "file://",
        `http://localhost:${port}`,
        `http://127.0.0.1:${port}`,
        `https://127.0.0.1:${port}`,
        `http://localhost:${port + 1}`,
      ),
    ),
    { nil: undefined },
  );
  await fc.assert(
    fc.asyncProperty(hostArb, originArb, async (host, origin) => {
      const headers: Record<string, string> = {
        ...POST_HEADERS,
        "content-length": String(Buffer.byteLength(INIT("2025-11-25"))),
        connection: "close",
      };
      if (origin !== undefined) headers["origin"] = origin;
      const bytes = head("POST", "/mcp", port, headers);
      // head() writes its own Host line; replace it with the one under test.
      const request = Buffer.concat([
        Buffer.from(bytes.toString("latin1").replace(/Host: [^\r]*/, `Host: ${host}`), "latin1"),
        Buffer.from(INIT("2025-11-25")),
      ]);
      const response = await rawRequest(port, request);
      const loopbackHost = LOOPBACK.includes(hostOf(host)) && !host.includes("@");
      let sameOrigin = origin === undefined;
      if (origin !== undefined) {
        try {
          const u = new URL(origin);
          // The spec leaves "invalid Origin" to the server; the threat is DNS rebinding, i.e. a foreign host:port.
          // (A page at https:// on this very host:port cannot exist: the port speaks plain HTTP.)
          sameOrigin = (u.protocol === "http:" || u.protocol === "https:") && u.host === host.trim().toLowerCase();
        } catch {
          sameOrigin = false;
        }
      }
      const allowed = loopbackHost && sameOrigin;
      // A Host header that is not a valid authority may be refused by Node itself (400) before the MCP guard runs.
      const ok = allowed
        ? response.status === 200
        : response.status === 403 || (response.status === 400 && !/^[\w.:[\]-]+$/.test(host));
      if (!ok)
        throw new Error(
          `Host ${JSON.stringify(host)}, Origin ${JSON.stringify(origin)}: HTTP ${response.status} (expected ${allowed ? "200" : "403, or 400 for a Host that is not a valid authority (RFC 9112 §3.2)"}) ${response.body.slice(0, 200)}`,
        );
      if (allowed) {
        // Close the session it made, so the property does not fill the session table.
        const id = /\r\nmcp-session-id: ([^\r]*)/i.exec(response.head)?.[1];
        if (id)
          await fetch(server.url, {
            method: "DELETE",
            headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
          });
      }
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
  );
}

type Wrong = { label: string; status: number; headers: (session: string) => Record<string, string> };

/** Session POSTs with one wrong header each: the status the spec (or HTTP semantics) gives, then a good request works. */
export async function wrongHeaders(server: ServerProcess, options: RunOptions): Promise<void> {
  const session = await openSession(server.url);
  const good = (s: string): Record<string, string> => ({ "mcp-session-id": s, "mcp-protocol-version": "2025-11-25" });
  const mediaType = fc.oneof(
    fc.constantFrom(
      "text/plain",
      "application/xml",
      "text/html",
      "application/jsonp",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "json",
      "",
    ),
    fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}$/),
  );
  const wrong: fc.Arbitrary<Wrong> = fc.oneof(
    mediaType
      .filter((t) => t !== "application/json")
      .map<Wrong>((t) => ({
        label: `Content-Type ${t}`,
        status: 415,
        headers: (s) => ({ ...good(s), "content-type": t }),
      })),
    fc
      .constantFrom("application/json", "text/event-stream", "text/html", "image/png, text/plain")
      .map<Wrong>((a) => ({ label: `Accept ${a}`, status: 406, headers: (s) => ({ ...good(s), accept: a }) })),
    // 2025-11-25 transports: an invalid or unsupported MCP-Protocol-Version → 400 (the stateless 2026-07-28 is not a
    // version a session can use). Another handshake revision the server serves is not "unsupported": see parity.test.ts.
    // (Not "2025-11-25 ": HTTP strips whitespace around a field value, RFC 9110 §5.5.)
    fc
      .oneof(
        fc
          .stringMatching(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
          .filter((v) => !["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].includes(v)),
        fc.constantFrom("latest", "2025-11-25x", "2.0", "1999-01-01", "2026-07-28"),
      )
      .map<Wrong>((v) => ({
        label: `MCP-Protocol-Version ${JSON.stringify(v)}`,
        status: 400,
        headers: (s) => ({ ...good(s), "mcp-protocol-version": v }),
      })),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map<Wrong>((id) => ({
      label: `unknown session ${id}`,
      status: 404,
      headers: () => ({ "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" }),
    })),
    fc.constant<Wrong>({ label: "no session", status: 400, headers: () => ({ "mcp-protocol-version": "2025-11-25" }) }),
  );
  let id = 100;
  const before = await server.heapAfterGc();
  await fc.assert(
    fc.asyncProperty(wrong, fc.constantFrom("ping", "tools/list"), async (w, method) => {
      id++;
      const bad = await postFrame(server.url, JSON.stringify({ jsonrpc: "2.0", id, method }), w.headers(session));
      if (bad.status !== w.status)
        throw new Error(`${w.label}: HTTP ${bad.status}, expected ${w.status}: ${bad.text.slice(0, 200)}`);
      const ok = await postFrame(server.url, JSON.stringify({ jsonrpc: "2.0", id: -id, method }), good(session));
      if (ok.status !== 200)
        throw new Error(`after ${w.label}: a correct request got HTTP ${ok.status}: ${ok.text.slice(0, 200)}`);
      if (!server.alive()) throw new Error(`${w.label}: server exited`);
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
  );
  const after = await server.heapAfterGc();
  if (after - before > HEAP_SLACK_BYTES) throw new Error(`wrong headers: heap after GC grew ${before} → ${after}`);
}

/** `initialize` with bad params: an error answer and no `Mcp-Session-Id` (the spec issues one only with a result). */
export async function failedInitialize(server: ServerProcess, options: RunOptions): Promise<void> {
  const badParams = fc.oneof(
    fc.constant({}),
    fc.record({
      protocolVersion: fc.oneof(fc.integer(), fc.constant(null)),
      capabilities: fc.constant({}),
      clientInfo: fc.constant({ name: "x", version: "1" }),
    }),
    fc.record({
      protocolVersion: fc.constant("2025-11-25"),
      capabilities: fc.oneof(fc.string(), fc.integer()),
      clientInfo: fc.constant({ name: "x", version: "1" }),
    }),
    fc.record({ protocolVersion: fc.constant("2025-11-25"), capabilities: fc.constant({}) }),
    fc.record({
      protocolVersion: fc.constant("2025-11-25"),
      capabilities: fc.constant({}),
      clientInfo: fc.oneof(fc.constant({}), fc.string(), fc.constant({ name: 5 })),
    }),
  );
  await fc.assert(
    fc.asyncProperty(badParams, async (params) => {
      const res = await postFrame(
        server.url,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }),
        {},
      );
      const error = res.answers[0]?.value as { error?: { code?: number } } | undefined;
      if (error?.error?.code !== -32602)
        throw new Error(
          `initialize ${JSON.stringify(params)}: expected -32602, got HTTP ${res.status} ${res.text.slice(0, 200)}`,
        );
      const sessionId = res.headers.get("mcp-session-id");
      if (sessionId !== null)
        throw new Error(`initialize ${JSON.stringify(params)} failed but minted session ${sessionId}`);
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
  );
}
