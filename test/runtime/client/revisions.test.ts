/**
 * Revisions as values on the client: descriptors the package does not ship (wire versions that are not dates, a new
 * method) are negotiated with a runtime server by their `version` and era, in both eras, and their new method is
 * called through its token. The built-in revisions stay the default and can be mixed in by name.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { revision as r2025_11_25 } from "../../../runtime/generated/protocol/2025-11-25/index.ts";
import { revision as r2026_07_28 } from "../../../runtime/generated/protocol/2026-07-28/index.ts";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  NegotiationError,
  ProtocolRequestType,
  ProtocolUsageError,
  SUPPORTED_REVISIONS,
  type RevisionDescriptor,
} from "../../../runtime/index.ts";
import { builtin } from "../builtin-lookup.ts";

const addNote = new ProtocolRequestType({
  method: "notes/add",
  direction: "clientToServer",
  params: z.looseObject({ text: z.string(), _meta: z.looseObject({}).optional() }),
  result: z.looseObject({ id: z.number(), resultType: z.literal("complete").optional() }),
  paramsOptional: false,
  delivery: "message",
  resultType: true,
  cacheable: false,
  inputRequired: false,
});

/** A stateless-era draft: 2026-07-28's methods plus `notes/add`, on the wire as "draft-b". */
const statelessDraft: RevisionDescriptor = {
  ...r2026_07_28,
  name: "draft",
  version: "draft-b",
  methods: { ...r2026_07_28.methods, "notes/add": addNote },
};
/** A handshake-era draft: 2025-11-25's methods plus `notes/add`, on the wire as "handshake-next". */
const handshakeDraft: RevisionDescriptor = {
  ...r2025_11_25,
  name: "hs",
  version: "handshake-next",
  methods: { ...r2025_11_25.methods, "notes/add": addNote },
};

/** A revision in these lists: a descriptor, or a built-in's wire version (looked up in `builtinRevisions`). */
type RevisionInput = RevisionDescriptor | string;
const values = (list: readonly RevisionInput[]) => list.map((r) => (typeof r === "string" ? builtin(r) : r));

async function connect(serverRevisions: readonly RevisionInput[], clientRevisions?: readonly RevisionInput[]) {
  const server = new McpServer({ info: { name: "notes", version: "1" }, revisions: values(serverRevisions) });
  server.setRequestHandler(addNote, (params) => ({ id: params.text.length }));
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    revisions: builtinRevisions,
    info: { name: "notes-client", version: "1" },
    ...(clientRevisions ? { revisions: values(clientRevisions) } : {}),
  });
  await client.connect(a);
  return client;
}

describe("revisions given to the client as descriptors", () => {
  it.each([
    ["stateless", statelessDraft],
    ["handshake", handshakeDraft],
  ] as const)("negotiates a %s-era draft by its wire version and calls its new method", async (era, draft) => {
    const client = await connect([draft, "2025-11-25"], [draft, "2025-11-25"]);
    expect(client.era).toBe(era);
    expect(client.revision).toBe(draft.version);
    expect(client.revisionName).toBe(draft.name);
    const result = await client.request(addNote, { text: "four" });
    expectTypeOf(result.id).toEqualTypeOf<number>();
    expect(result.id).toBe(4);
    await client.close();
  });

  it("falls back to a built-in revision named in the same list when the server does not know the draft", async () => {
    const client = await connect(["2025-11-25"], [statelessDraft, "2025-11-25"]);
    expect(client.era).toBe("handshake");
    expect(client.revision).toBe("2025-11-25");
    await expect(client.request(addNote, { text: "x" })).rejects.toBeInstanceOf(ProtocolUsageError);
    await client.close();
  });

  it("names both sides' versions when nothing matches", async () => {
    const error = await connect([statelessDraft], [handshakeDraft]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NegotiationError);
    expect((error as Error).message).toBe(
      "no mutually supported protocol revision; this client accepts handshake-next (the server supports draft-b)",
    );
  });

  it("defaults to the built-in revisions, preferring the newest", async () => {
    const client = await connect([statelessDraft, "2025-11-25", "2026-07-28"]);
    expect(client.revision).toBe(SUPPORTED_REVISIONS[0]);
    await client.close();
  });
});
