/** Revisions the package does not ship, made in-process from built-in descriptors plus a method of our own. */
import { z } from "zod";
import { revision as r2025_11_25 } from "../../runtime/generated/protocol/2025-11-25/index.ts";
import { revision as r2026_07_28 } from "../../runtime/generated/protocol/2026-07-28/index.ts";
import {
  ProtocolNotificationType,
  ProtocolRequestType,
  type RevisionDescriptor,
} from "../../runtime/protocol/method-type.ts";

export const addNote = new ProtocolRequestType<
  "notes/add",
  { text: string; _meta?: Record<string, unknown> },
  { id: number; resultType?: "complete" }
>({
  method: "notes/add",
  direction: "clientToServer",
  params: z.looseObject({ text: z.string(), _meta: z.looseObject({}).optional() }) as unknown as z.ZodType<{
    text: string;
    _meta?: Record<string, unknown>;
  }>,
  result: z.looseObject({ id: z.number(), resultType: z.literal("complete").optional() }) as unknown as z.ZodType<{
    id: number;
    resultType?: "complete";
  }>,
  paramsOptional: false,
  delivery: "message",
  resultType: true,
  cacheable: false,
  inputRequired: false,
});

export const noteSeen = new ProtocolNotificationType<"notes/seen", { id: number }>({
  method: "notes/seen",
  direction: "clientToServer",
  params: z.looseObject({ id: z.number() }) as unknown as z.ZodType<{ id: number }>,
  paramsOptional: false,
});

export const notesChanged = new ProtocolNotificationType<"notes/changed", { count: number }>({
  method: "notes/changed",
  direction: "serverToClient",
  params: z.looseObject({ count: z.number() }) as unknown as z.ZodType<{ count: number }>,
  paramsOptional: false,
});

/** A stateless-era draft: 2026-07-28's methods plus `notes/add`, on the wire as "draft-b". */
export const statelessDraft: RevisionDescriptor = {
  ...r2026_07_28,
  name: "draft",
  version: "draft-b",
  methods: { ...r2026_07_28.methods, "notes/add": addNote },
};
/** A handshake-era draft: 2025-11-25's methods plus `notes/add`, on the wire as "handshake-next". */
export const handshakeDraft: RevisionDescriptor = {
  ...r2025_11_25,
  name: "hs",
  version: "handshake-next",
  methods: { ...r2025_11_25.methods, "notes/add": addNote },
};
