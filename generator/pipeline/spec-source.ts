/**
 * The MCP specification's files as a pinned, verified input. Each file is named by its path under a spec root laid
 * out as the specification repository's `schema/` folder (`2025-11-25/schema.ts`, `2026-07-28/examples/<Type>/x.json`)
 * plus `extensions/<name>/…` for extension schemas, which live in repositories of their own. A file is fetched from
 * its repository at the pinned commit (raw.githubusercontent.com, or `MCP_SPEC_BASE_URL`, e.g. a loopback copy in
 * tests) and accepted only if its SHA-256 is the one committed in `generator/spec/pins.ts`. Used by the repository's set-up
 * (`scripts/spec-inputs.ts`, which fills `.spec/`) and by `mcp-gen protocol --spec`.
 */
import { createHash } from "node:crypto";
import { SPEC_PINS } from "../spec/pins.ts";
import { PAGE_ASSEMBLIES } from "../spec/pages.ts";

/** A repository holding spec files, at the commit the pins were computed from. */
export interface SpecRepository {
  /** `owner/name` on GitHub. */
  readonly repository: string;
  readonly commit: string;
  /** The folder of the repository that a spec-root path maps into. */
  readonly folder: string;
}

/** The specification repository: `<root>/<path>` is its `schema/<path>` at this commit. */
export const SPEC_REPOSITORY: SpecRepository = {
  repository: "modelcontextprotocol/modelcontextprotocol",
  commit: "b0f60ba5409db7a6582440a7b473cc0398890f15",
  folder: "schema",
};

/** Extension schemas kept in repositories of their own: `<root>/extensions/<name>/<file>`. */
export const EXTENSION_REPOSITORIES: Readonly<Record<string, SpecRepository>> = {
  skills: {
    repository: "modelcontextprotocol/ext-skills",
    commit: "0682b7b6e9e661fbf8538e27cbd3e7282927b45a",
    folder: "specification/stable",
  },
  tasks: {
    repository: "modelcontextprotocol/ext-tasks",
    commit: "e4345978be1f602f1fc48d89051e8559dd5302a6",
    folder: "schema/draft",
  },
};

export const DEFAULT_SPEC_BASE_URL = "https://raw.githubusercontent.com";
/** The environment variable that replaces `DEFAULT_SPEC_BASE_URL` (a mirror, or a loopback copy in tests). */
export const SPEC_BASE_URL_ENV = "MCP_SPEC_BASE_URL";

/** Limits of one download: a spec file is a few hundred KB. */
export interface DownloadLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 };

/** A spec file refused: its content is not the pinned one, or it could not be fetched. */
export class SpecInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpecInputError";
  }
}

/** A spec file that could not be fetched at all (offline, refused, not found, too large): `url` is the one asked. */
export class SpecDownloadError extends SpecInputError {
  constructor(
    readonly url: string,
    cause: string,
  ) {
    super(`cannot download ${url}: ${cause}`);
    this.name = "SpecDownloadError";
  }
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Every pinned spec-root path, sorted. */
export function pinnedFiles(): string[] {
  return Object.keys(SPEC_PINS).sort();
}

/** The pinned SHA-256 of a spec-root path, or undefined when the path is not pinned. */
export function pinnedSha256(file: string): string | undefined {
  return Object.hasOwn(SPEC_PINS, file) ? SPEC_PINS[file] : undefined;
}

/** The repository and in-repository path of a spec-root path (`extensions/tasks/schema.ts` → ext-tasks). */
export function upstreamOf(file: string, commit?: string): { repo: SpecRepository; path: string } {
  const [first, name, ...rest] = file.split("/");
  const extension = first === "extensions" && name !== undefined ? EXTENSION_REPOSITORIES[name] : undefined;
  const repo = extension ?? SPEC_REPOSITORY;
  // A file assembled from a page (`spec/pages.ts`) is downloaded as that page.
  const inner = PAGE_ASSEMBLIES[file]?.page ?? (extension ? rest.join("/") : file);
  return { repo: commit === undefined ? repo : { ...repo, commit }, path: `${repo.folder}/${inner}` };
}

/** The download URL of a spec-root path under `baseUrl` (raw.githubusercontent.com's layout). */
export function specFileUrl(file: string, baseUrl: string, commit?: string): string {
  const { repo, path } = upstreamOf(file, commit);
  return `${baseUrl.replace(/\/+$/, "")}/${repo.repository}/${repo.commit}/${path}`;
}

/** The ```typescript blocks of a Markdown page, in order, each without its fences. */
export function typescriptBlocks(page: string): string[] {
  const blocks: string[] = [];
  const fence = /^```(?:typescript|ts)[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/gm;
  for (let match = fence.exec(page); match !== null; match = fence.exec(page)) blocks.push(match[1]!.trimEnd());
  return blocks;
}

/**
 * A downloaded file as the spec root holds it: a page assembled (`spec/pages.ts`: the prelude, then the page's
 * TypeScript blocks with each top-level declaration exported), any other file as it came.
 */
export function specFileFrom(file: string, data: Buffer): Buffer {
  const assembly = PAGE_ASSEMBLIES[file];
  if (!assembly) return data;
  const blocks = typescriptBlocks(data.toString("utf8")).map((b) => b.replace(/^(interface|type) /gm, "export $1 "));
  return Buffer.from(`${assembly.prelude}${blocks.join("\n\n")}\n`);
}

/** The base URL downloads use: `MCP_SPEC_BASE_URL` when set, else raw.githubusercontent.com. */
export function specBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const value = env[SPEC_BASE_URL_ENV];
  return value !== undefined && value !== "" ? value : DEFAULT_SPEC_BASE_URL;
}

/** GETs `url` (http or https only), bounded in time and size; throws `SpecInputError` naming the URL and the cause. */
export async function download(url: string, limits: DownloadLimits = DEFAULT_DOWNLOAD_LIMITS): Promise<Buffer> {
  if (!/^https?:\/\//.test(url)) throw new SpecDownloadError(url, "only http(s) URLs are supported");
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(limits.timeoutMs), redirect: "follow" });
  } catch (error) {
    throw new SpecDownloadError(url, fetchFailure(error));
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SpecDownloadError(url, `HTTP ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (let next = await reader?.read(); next !== undefined && !next.done; next = await reader?.read()) {
      size += next.value.byteLength;
      if (size > limits.maxBytes) throw new SpecDownloadError(url, `larger than ${limits.maxBytes} bytes`);
      chunks.push(next.value);
    }
  } catch (error) {
    await reader?.cancel().catch(() => undefined);
    if (error instanceof SpecInputError) throw error;
    throw new SpecDownloadError(url, error instanceof Error ? error.message : String(error));
  }
  return Buffer.concat(chunks);
}

/** Why a fetch failed: undici's "fetch failed" hides the reason (refused, no such host, timeout) in its cause. */
function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause !== undefined && cause !== "" && cause !== error.message ? `${error.message} (${cause})` : error.message;
}

/**
 * Throws `SpecInputError` unless `data` has the pinned SHA-256 of `file` (`from` says where it came from, for the
 * message). A path that is not pinned is refused too: only pinned files are accepted as verified.
 */
export function verifyPinned(file: string, data: Uint8Array, from: string): void {
  const expected = pinnedSha256(file);
  if (expected === undefined) throw new SpecInputError(`${file} is not a pinned spec file`);
  const actual = sha256Hex(data);
  if (actual !== expected) {
    const { repo } = upstreamOf(file);
    throw new SpecInputError(
      `refusing ${file} from ${from}: its sha256 is ${actual}, not the pinned ${expected} ` +
        `(${repo.repository} at ${repo.commit.slice(0, 12)}; pins: generator/spec/pins.ts)`,
    );
  }
}

/** A schema fetched for `mcp-gen protocol --spec`. */
export interface FetchedSchema {
  /** The revision folder (`2025-11-25`, `draft`): the spec-root path is `<name>/schema.ts`. */
  readonly name: string;
  readonly commit: string;
  readonly url: string;
  readonly data: Buffer;
  readonly sha256: string;
  /** `pinned`: matched this mcp-gen's pins; `sha256`: matched `--sha256`; `unverified`: neither was possible. */
  readonly verified: "pinned" | "sha256" | "unverified";
}

/** `<revision|draft>[@<commit>]`: a folder of the spec repository's `schema/`, at a commit (default: the pinned one). */
const SPEC_ARGUMENT = /^(\d{4}-\d{2}-\d{2}|draft)(?:@([0-9a-f]{7,40}))?$/;

/**
 * Downloads `<name>/schema.ts` of the specification repository. A pinned file at the pinned commit must match its pin;
 * with `expectedSha256` the content must match that; anything else is returned as `unverified` for the caller to say
 * so. Throws `SpecInputError` for a malformed argument, a failed download or a mismatch.
 */
export async function fetchSpecSchema(
  spec: string,
  options: { readonly sha256?: string; readonly env?: NodeJS.ProcessEnv; readonly limits?: DownloadLimits } = {},
): Promise<FetchedSchema> {
  const match = SPEC_ARGUMENT.exec(spec);
  if (!match) {
    throw new SpecInputError(
      `--spec ${JSON.stringify(spec)} is not <revision>[@<commit>]: a revision (YYYY-MM-DD, as the schema folders are named) or draft, ` +
        "optionally @ a commit of github.com/modelcontextprotocol/modelcontextprotocol (7 to 40 hex digits)",
    );
  }
  const name = match[1]!;
  const commit = match[2] ?? SPEC_REPOSITORY.commit;
  const expected = options.sha256?.toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected))
    throw new SpecInputError(`--sha256 ${JSON.stringify(options.sha256)} is not 64 hex digits`);
  const file = `${name}/schema.ts`;
  const url = specFileUrl(file, specBaseUrl(options.env), commit);
  const data = await download(url, options.limits);
  const sha256 = sha256Hex(data);
  const base = { name, commit, url, data, sha256 };
  if (expected !== undefined) {
    if (sha256 !== expected)
      throw new SpecInputError(`refusing ${file} from ${url}: its sha256 is ${sha256}, not the --sha256 ${expected}`);
    return { ...base, verified: "sha256" };
  }
  if (pinnedSha256(file) !== undefined && SPEC_REPOSITORY.commit.startsWith(commit)) {
    verifyPinned(file, data, url);
    return { ...base, verified: "pinned" };
  }
  return { ...base, verified: "unverified" };
}
