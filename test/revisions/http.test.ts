/**
 * Revisions as values over Streamable HTTP: the HTTP layer learns a served descriptor's wire version and era from
 * the server it wraps (nothing compares dates, nothing is process-wide), so a user's drafts of either era are negotiated and served over loopback
 * HTTP like built-in revisions; the per-era SSE priming rule applies to them as stated in transport-revisions.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../runtime/client/client.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../runtime/http/server/node.ts";
import { sendsPrimingEvent } from "../../runtime/http/server/transport-revisions.ts";
import { McpServer } from "../../runtime/server/server.ts";
import { addNote, handshakeDraft, statelessDraft } from "./drafts.ts";
import { builtinRevisions } from "../../runtime/protocol/builtin-revisions.ts";

let running: RunningServer;

beforeAll(async () => {
  const server = new McpServer({
    info: { name: "drafts", version: "1" },
    revisions: [...builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)), statelessDraft, handshakeDraft],
  });
  server.setRequestHandler(addNote, (params) => ({ id: params.text.length }));
  running = await serve(server);
});
afterAll(async () => {
  await running.close();
});

describe("a user's revisions over Streamable HTTP", () => {
  for (const draft of [statelessDraft, handshakeDraft]) {
    it(`negotiates ${draft.version} (${draft.era} era) and calls its new method`, async () => {
      const client = new McpClient({ info: { name: "c", version: "1" }, revisions: [draft] });
      await client.connect(new StreamableHttpClientTransport(running.url));
      expect([client.revision, client.era]).toEqual([draft.version, draft.era]);
      expect(await client.request(addNote, { text: "four" })).toMatchObject({ id: 4 });
      await client.close();
    });
  }

  it("primes SSE streams for handshake-era revisions after the three released before SEP-1699, by era and exact version", () => {
    const served = [...builtinRevisions, statelessDraft, handshakeDraft];
    const primes = (version: string) => sendsPrimingEvent(served, version);
    expect(primes(handshakeDraft.version)).toBe(true);
    expect(primes("2025-11-25")).toBe(true);
    expect(["2024-11-05", "2025-03-26", "2025-06-18"].map(primes)).toEqual([false, false, false]);
    expect(primes(statelessDraft.version)).toBe(false);
    expect(primes("never-served")).toBe(false);
    // Only what the server was given counts: a handshake-era version it does not serve is unknown here.
    expect(sendsPrimingEvent([statelessDraft], "2025-11-25")).toBe(false);
  });
});
