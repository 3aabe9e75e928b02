/**
 * The Skills extension as a server feature (`ServerExtension.serve`; extensions/skills, SEP-2640): `skills/list`
 * (paginated, with cache hints), `skills/get` (-32602 for a URI that is no served skill's SKILL.md), every file as a
 * `skill://` resource through `resources/read` (each SKILL.md also in `resources/list`, named and described by its
 * frontmatter), and `resources/directory/read` when `directoryRead` is on. It
 * declares the `resources` capability the page requires. A static skill's file is served only when its bytes still
 * have the size and digest recorded for it (the generated catalog's), so a server never serves content its entry
 * does not describe.
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { ResourceDefinition } from "../../protocol/builtin-types.ts";
import type { AnyMethodType } from "../../protocol/method-type.ts";
import type { RequestContext } from "../../server/context.ts";
import type { ServerExtension, ServerFeature } from "../../server/extension.ts";
import { paginate } from "../../server/pagination.ts";
import { extension } from "../../generated/extensions/skills/extension.ts";
import { bytesOf, contentItem, digestOf, mimeTypeOf } from "../content.ts";
import {
  isDynamic,
  SkillCatalog,
  skillUri,
  type CatalogFile,
  type SkillDefinition,
  type SkillFileLoader,
} from "./catalog.ts";
import { readDirectory } from "./directory.ts";

type Result = Record<string, unknown>;

/** The Skills extension identifier. */
export const SKILLS_EXTENSION_ID = extension.id;

export interface SkillsOptions {
  /** The skills served: the generated catalog (`skillCatalog`), skills made by code, dynamic skills. */
  readonly skills: readonly SkillDefinition[];
  /** The bytes of static skills' files: the generated `skillFiles` (embedded, no file system) or your own loader. */
  readonly load?: SkillFileLoader;
  /** Serve `resources/directory/read` (advertised as `directoryRead: true`). Default: false. */
  readonly directoryRead?: boolean;
  /** Entries per `skills/list` page (and children per directory page). Default: 100; 0: one page. */
  readonly pageSize?: number;
  /** The cache hints of `skills/list` and `skills/get` (default: the server's, `ServerOptions.cache`). */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: "public" | "private" };
}

/** The Skills extension for `ServerOptions.extensions`: `new McpServer({ …, extensions: [skills({ skills })] })`. */
export function skills(options: SkillsOptions): ServerExtension {
  const catalog = new SkillCatalog(options.skills);
  const load = options.load;
  if (!load && catalog.skills.some((s) => !isDynamic(s)))
    throw new Error("skills(): static skills need `load` (the generated skillFiles, or a loader of their bytes)");
  const tokens = Object.values(extension.methods) as readonly AnyMethodType[];
  return {
    id: extension.id,
    versions: extension.versions,
    // The page asks the server to declare it; hosts call skills/list after seeing that, declaring nothing themselves.
    clientDeclares: false,
    settings: options.directoryRead ? { directoryRead: true } : {},
    methods: options.directoryRead ? tokens : tokens.filter((t) => t.method !== "resources/directory/read"),
    serve: () => skillsFeature(catalog, options, load),
  };
}

/** The served entry of a skill (the page's `Skill`). */
export function skillEntry(skill: SkillDefinition): Result {
  return {
    uri: skillUri(skill.path, "SKILL.md"),
    frontmatter: { ...skill.frontmatter },
    resources: isDynamic(skill)
      ? "dynamic"
      : skill.files.map((f) => ({ uri: skillUri(skill.path, f.path), digest: `sha256:${f.sha256}`, size: f.size })),
  };
}

function skillsFeature(
  catalog: SkillCatalog,
  options: SkillsOptions,
  load: SkillFileLoader | undefined,
): ServerFeature {
  const entries = new Map(catalog.skills.map((s) => [s, skillEntry(s)]));
  const pageSize = options.pageSize ?? 100;
  const hints: Result = {
    ...(options.cache?.ttlMs !== undefined ? { ttlMs: options.cache.ttlMs } : {}),
    ...(options.cache?.scope !== undefined ? { cacheScope: options.cache.scope } : {}),
  };
  const requests: Record<string, (params: Readonly<Result>, context: RequestContext) => Promise<Result> | Result> = {
    "skills/list": (params) => {
      const { page, nextCursor } = paginate([...entries.values()], params["cursor"], pageSize);
      return { skills: page, ...(nextCursor ? { nextCursor } : {}), ...hints };
    },
    "skills/get": (params) => {
      const uri = params["uri"] as string;
      const skill = catalog.entry(uri);
      if (!skill) throw new RpcError(ErrorCode.InvalidParams, `No skill is served at ${shown(uri)}`);
      return { skill: entries.get(skill)!, ...hints };
    },
  };
  if (options.directoryRead)
    requests["resources/directory/read"] = async (params, context) => ({
      ...(await readDirectory(catalog, params, context, pageSize)),
      // The page's result has no cache hints, but the SDK v2 client (2.4.0) refuses one without them; they are a
      // freshness hint only (0 ms, the scope an authenticated request gets, unless `cache` says otherwise).
      ttlMs: options.cache?.ttlMs ?? 0,
      cacheScope: options.cache?.scope ?? (context.authInfo ? "private" : "public"),
    });
  // Each SKILL.md in resources/list with the metadata the page's "Resource Metadata" asks for (SHOULD).
  const listed = catalog.skills.map((skill): ResourceDefinition => {
    const size = isDynamic(skill) ? undefined : skill.files.find((f) => f.path === "SKILL.md")?.size;
    return {
      uri: skillUri(skill.path, "SKILL.md"),
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      mimeType: "text/markdown",
      ...(size !== undefined ? { size } : {}),
    };
  });
  return {
    requests,
    capabilities: { resources: {} },
    servesResource: (uri) => uri.startsWith("skill://") && catalog.file(uri) !== undefined,
    resourceList: (resources) => [...resources, ...listed],
    async readResource(uri, context) {
      const file = uri.startsWith("skill://") ? catalog.file(uri) : undefined;
      if (!file) return undefined;
      const bytes = await fileBytes(file, context, load);
      return bytes && { contents: [contentItem(uri, bytes, mimeTypeOf(file.path, bytes))] };
    },
  };
}

/** A file's bytes (undefined: a dynamic skill has none there); a static file that no longer matches is refused. */
async function fileBytes(
  file: CatalogFile,
  context: RequestContext,
  load: SkillFileLoader | undefined,
): Promise<Uint8Array | undefined> {
  const { skill, record } = file;
  if (isDynamic(skill)) {
    const content = await skill.read(file.path, context);
    return content === undefined ? undefined : bytesOf(content);
  }
  const bytes = bytesOf(await load!(skill.path, file.path));
  if (bytes.length !== record!.size || digestOf(bytes) !== `sha256:${record!.sha256}`)
    throw new RpcError(
      ErrorCode.InternalError,
      `skill file ${skillUri(skill.path, file.path)} is not the content its entry describes (changed after generation)`,
    );
  return bytes;
}

/** A URI as an error message may show it: at most 200 characters, control characters escaped. */
export function shown(uri: unknown): string {
  const text = JSON.stringify(String(uri).slice(0, 200));
  return text.slice(1, -1);
}
