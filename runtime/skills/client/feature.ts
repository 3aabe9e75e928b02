/**
 * The Skills extension as a client feature (`ClientExtension.attach`; extensions/skills, SEP-2640, host side):
 * `skillsClient()` is what a client lists (`new McpClient({ …, extensions: [skillsClient()] })`), and
 * `client.extension(…)` (or `skillsOf(client)`) its typed API. `list()` and `get()` hold the entries they receive and
 * read nothing else (no prefetching); `read(uri)` reads one file and verifies it against the held entries
 * (`SkillVerificationError` when it fails, the content unused); `readDirectory(uri)` reads a folder's children. The
 * entries are held per client, so per server: a skill's identity is (server, uri), the server named by the host's
 * label (`skillsClient({ server })`).
 */
import { ProtocolUsageError } from "../../jsonrpc/errors.ts";
import type { CallOptions, McpClient } from "../../client/client.ts";
import type { ClientExtension, FeatureClient } from "../../client/extensions.ts";
import { extension } from "../../generated/extensions/skills/extension.ts";
import type { ReadResourceDirectoryResult, Skill } from "../../generated/extensions/skills/types.ts";
import { SkillEntryError, shownText } from "./errors.ts";
import { entryProblems, HeldSkills } from "./held.ts";
import { readVerified, type SkillFile } from "./verify.ts";

/** What `list()` resolves to: every entry of every page (or of the one page asked for), with the cache hints. */
export interface SkillListing {
  readonly skills: readonly Skill[];
  /** Only when `list({ cursor })` asked for one page and more follow. */
  readonly nextCursor?: string;
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

/** What `client.extension(skillsClient())` returns. */
export interface SkillsApi {
  /** The server negotiated the Skills extension (false before connecting). */
  readonly supported: boolean;
  /** The server serves `resources/directory/read` (`directoryRead: true`). */
  readonly directoryRead: boolean;
  /** `skills/list`: every page (or the page at `cursor`), each entry checked and held; an empty listing when unsupported. */
  list(options?: CallOptions & { readonly cursor?: string }): Promise<SkillListing>;
  /** `skills/get`: the entry of the SKILL.md at `uri` (listed or not), checked and held. */
  get(uri: string, options?: CallOptions): Promise<Skill>;
  /** `resources/read` of one file of a held skill, verified (`SkillVerificationError` when it fails). */
  read(uri: string, options?: CallOptions): Promise<SkillFile>;
  /** `resources/directory/read`: a folder's direct children, every page. Needs `directoryRead`. */
  readDirectory(uri: string, options?: CallOptions): Promise<DirectoryEntry[]>;
}

/** A child of a directory resource (a file with its metadata, or a folder as `inode/directory`). */
export type DirectoryEntry = ReadResourceDirectoryResult["resources"][number];

/** Pages walked at most by one `list()` or `readDirectory()` (a server that never stops paging is refused). */
const MAX_PAGES = 1000;

export interface SkillsClientOptions {
  /**
   * The host's own label for the server (e.g. `docs-server`): half of every skill's identity (server, uri), named by
   * each file read and each error. The page requires a host-assigned label, not the server's self-reported name.
   */
  readonly server?: string;
}

/** The Skills extension for `ClientOptions.extensions`, with its typed API. */
export function skillsClient(options: SkillsClientOptions = {}): ClientExtension<SkillsApi> {
  return { ...extension, attach: (client) => ({ api: skillsApi(client, options.server) }) };
}

/** Looked up by id: whichever `skillsClient()` the client lists. */
const SKILLS: ClientExtension<SkillsApi> = { id: extension.id, methods: [] };

/** The Skills API of a client that lists `skillsClient()`. */
export function skillsOf(client: McpClient): SkillsApi {
  return client.extension(SKILLS);
}

function settings(client: FeatureClient): Readonly<Record<string, unknown>> | undefined {
  const extensions = client.serverCapabilities["extensions"];
  const own = typeof extensions === "object" && extensions !== null ? (extensions as Record<string, unknown>) : {};
  const value = own[extension.id];
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

function skillsApi(client: FeatureClient, server: string | undefined): SkillsApi {
  const held = new HeldSkills();
  const connected = () => {
    try {
      return client.serverCapabilities;
    } catch {
      return undefined;
    }
  };
  const supported = () => connected() !== undefined && settings(client) !== undefined;
  const hold = (method: string, entries: readonly Skill[]) => {
    const problems = entries.flatMap((entry) =>
      entryProblems(entry).map((problem) => `${shownText(String(entry.uri))}: ${problem}`),
    );
    const uris = entries.map((entry) => entry.uri);
    for (const uri of new Set(uris.filter((uri, i) => uris.indexOf(uri) !== i)))
      problems.push(`${shownText(uri)}: listed more than once`);
    if (problems.length > 0) throw new SkillEntryError(method, problems);
    for (const entry of entries) held.hold(entry);
  };
  return {
    get supported() {
      return supported();
    },
    get directoryRead() {
      return supported() && settings(client)?.["directoryRead"] === true;
    },
    async list(options = {}) {
      if (!supported()) return { skills: [] };
      const { cursor, ...call } = options;
      const pages = await walk(client, "skills/list", {}, call, cursor !== undefined ? cursor : undefined);
      const skills = pages.flatMap((page) => page["skills"] as Skill[]);
      hold("skills/list", skills);
      const first = pages[0]!;
      const next = cursor !== undefined ? first["nextCursor"] : undefined;
      return {
        skills,
        ...(typeof next === "string" ? { nextCursor: next } : {}),
        ...(typeof first["ttlMs"] === "number" ? { ttlMs: first["ttlMs"] } : {}),
        ...(first["cacheScope"] === "public" || first["cacheScope"] === "private"
          ? { cacheScope: first["cacheScope"] }
          : {}),
      };
    },
    async get(uri, options = {}) {
      const result = await client.request("skills/get", { uri }, options);
      const skill = result["skill"] as Skill;
      if (skill.uri !== uri)
        throw new SkillEntryError("skills/get", [`${shownText(uri)}: the server answered with another skill`]);
      hold("skills/get", [skill]);
      return skill;
    },
    read: (uri, options = {}) => readVerified(client, held, { uri, server }, options),
    async readDirectory(uri, options = {}) {
      if (!supported() || settings(client)?.["directoryRead"] !== true)
        throw new ProtocolUsageError(
          "resources/directory/read: the server did not declare directoryRead for the Skills extension",
        );
      const pages = await walk(client, "resources/directory/read", { uri }, options);
      return pages.flatMap((page) => page["resources"] as DirectoryEntry[]);
    },
  };
}

/** Every page of a paginated request from `cursor` (only that page when a cursor is given). */
async function walk(
  client: FeatureClient,
  method: string,
  params: Readonly<Record<string, unknown>>,
  options: CallOptions,
  cursor?: string,
): Promise<Record<string, unknown>[]> {
  if (cursor !== undefined) return [await client.request(method, { ...params, cursor }, options)];
  const pages: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (let next: string | undefined; pages.length < MAX_PAGES;) {
    const page = await client.request(method, next === undefined ? params : { ...params, cursor: next }, options);
    pages.push(page);
    next = typeof page["nextCursor"] === "string" ? page["nextCursor"] : undefined;
    if (next === undefined) return pages;
    if (seen.has(next)) throw new ProtocolUsageError(`${method}: the server repeated a cursor`);
    seen.add(next);
  }
  throw new ProtocolUsageError(`${method}: the server sent more than ${MAX_PAGES} pages`);
}
