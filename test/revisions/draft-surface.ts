/**
 * A draft revision with new surface, made from a released schema.ts: a server capability (`notes`), a `Tool` field
 * (`color`) and a client request (`notes/add`, gated by `notes` by the naming rule). The worked example of
 * docs/revisions-and-extensions.md is this draft; test/revisions/draft-*.test.ts run it.
 */
import { readFileSync } from "node:fs";
import { specFile } from "../protocol/spec.ts";

export const DRAFT_VERSION = "DRAFT-notes-1";

/** Inserts `text` after the first match of `anchor` (which must exist). */
function after(source: string, anchor: RegExp, text: string): string {
  const match = anchor.exec(source);
  if (!match) throw new Error(`draft: no ${String(anchor)} in the released schema`);
  const end = match.index + match[0].length;
  return source.slice(0, end) + text + source.slice(end);
}

/** 2025-11-25's schema.ts with the draft's additions and its own wire version. */
export function notesDraftSchema(): string {
  let text = readFileSync(specFile("2025-11-25"), "utf8");
  text = text.replace(
    /export const LATEST_PROTOCOL_VERSION = "[^"]*";/,
    `export const LATEST_PROTOCOL_VERSION = ${JSON.stringify(DRAFT_VERSION)};`,
  );
  text = after(
    text,
    /export interface ServerCapabilities \{\n/,
    "  /** Present if the server keeps notes. */\n  notes?: {\n    /** Longest note accepted. */\n    maxLength?: number;\n  };\n",
  );
  text = after(
    text,
    /export interface Tool extends [^{]*\{\n/,
    '  /** How a host shows the tool. */\n  color?: "red" | "green" | "blue";\n',
  );
  text = after(text, /export type ClientRequest =\n/, "  | AddNoteRequest\n");
  text = after(text, /export type ServerResult =\n/, "  | AddNoteResult\n");
  return `${text}
/** Params of notes/add. */
export interface AddNoteRequestParams extends RequestParams {
  /** The note. */
  text: string;
}

/** Adds a note. */
export interface AddNoteRequest extends JSONRPCRequest {
  method: "notes/add";
  params: AddNoteRequestParams;
}

/** The note added. */
export interface AddNoteResult extends Result {
  id: number;
}
`;
}
