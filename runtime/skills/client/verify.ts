/**
 * A skill file read and verified (extensions/skills, "Verification"): a file no held entry lists is refused before
 * any request; the bytes read must have the entry's size and SHA-256 digest (checked against every held entry that
 * lists the file); a skill's SKILL.md must also carry the entry's frontmatter, field by field. A dynamic skill's files
 * have no digests (`verified: false`), but its SKILL.md's frontmatter is checked all the same.
 */
import type { CallOptions } from "../../client/tokens.ts";
import type { FeatureClient } from "../../client/extensions.ts";
import { digestOf, itemBytes, utf8Text } from "../content.ts";
import { SkillVerificationError, type SkillVerificationReason } from "./errors.ts";
import { frontmatterDifferences, readFrontmatter } from "./frontmatter.ts";
import { uriKey, type HeldSkill, type HeldSkills } from "./held.ts";

/** A skill file as read and verified by `SkillsApi.read`. */
export interface SkillFile {
  /** The URI read. */
  readonly uri: string;
  /** The host's label of the server it came from (`skillsClient({ server })`). */
  readonly server: string | undefined;
  /** The SKILL.md URI of the held entry it was checked against. */
  readonly skill: string;
  readonly mimeType: string | undefined;
  /** The file's raw bytes: exactly those its entry's digest covers. */
  readonly bytes: Uint8Array;
  /** The bytes as text, when they are UTF-8. */
  readonly text: string | undefined;
  /** Size and digest were checked (false only for a dynamic skill's files, which have none). */
  readonly verified: boolean;
  /** A skill's own SKILL.md: its frontmatter (equal to the entry's) and the markdown after it. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  readonly body?: string;
}

export async function readVerified(
  client: FeatureClient,
  held: HeldSkills,
  target: { readonly uri: string; readonly server: string | undefined },
  options: CallOptions,
): Promise<SkillFile> {
  const { uri, server } = target;
  const selfNamed = client.serverInfo?.name;
  const listing = held.listing(uri);
  const governing: HeldSkill | undefined = listing.skillOf ?? listing.listedBy[0]?.skill ?? listing.dynamic;
  const fail = (reason: SkillVerificationReason, detail: string, differences?: readonly string[]) =>
    new SkillVerificationError(reason, { uri, skill: governing?.entry.uri, server, selfNamed }, detail, differences);
  if (!governing) throw fail("unlisted", "no skill entry held from this server lists it (list or get it first)");
  const result = await client.request("resources/read", { uri }, options);
  const bytes = contentBytes(result, uri);
  if (bytes === undefined) throw fail("content", "the server's answer holds no single content item for it");
  for (const { record } of listing.listedBy) {
    if (bytes.length !== record.size) throw fail("size", `${bytes.length} bytes read, the entry lists ${record.size}`);
    if (digestOf(bytes) !== record.digest)
      throw fail("digest", `its SHA-256 is ${digestOf(bytes)}, the entry lists ${record.digest}`);
  }
  const text = utf8Text(bytes);
  const mimeType = mimeOf(result, uri);
  const file = {
    uri,
    server,
    skill: governing.entry.uri,
    mimeType,
    bytes,
    text,
    verified: listing.listedBy.length > 0,
  };
  if (!listing.skillOf) return file;
  // The skill's own SKILL.md: what it says of itself must be what the entry says.
  const read = text === undefined ? { problem: "it is not UTF-8 text" } : readFrontmatter(text);
  if ("problem" in read) throw fail("frontmatter", read.problem);
  const differences = frontmatterDifferences(listing.skillOf.entry.frontmatter, read.frontmatter);
  if (differences.length > 0)
    throw fail("frontmatter", `its frontmatter differs from the entry's: ${differences.join("; ")}`, differences);
  return { ...file, frontmatter: read.frontmatter, body: read.body };
}

/** The content items of a `resources/read` result for `uri` (however either side percent-encodes it). */
function itemsFor(result: Readonly<Record<string, unknown>>, uri: string): Record<string, unknown>[] {
  const contents = Array.isArray(result["contents"]) ? (result["contents"] as unknown[]) : [];
  const key = uriKey(uri);
  return contents.filter(
    (item): item is Record<string, unknown> =>
      typeof item === "object" && item !== null && uriKey(String((item as { uri?: unknown }).uri)) === key,
  );
}

/** The bytes of the one content item for `uri`, or undefined when there is not exactly one readable item. */
function contentBytes(result: Readonly<Record<string, unknown>>, uri: string): Uint8Array | undefined {
  const items = itemsFor(result, uri);
  return items.length === 1 ? itemBytes(items[0]!) : undefined;
}

function mimeOf(result: Readonly<Record<string, unknown>>, uri: string): string | undefined {
  const mimeType = itemsFor(result, uri)[0]?.["mimeType"];
  return typeof mimeType === "string" ? mimeType : undefined;
}
