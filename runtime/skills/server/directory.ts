/**
 * `resources/directory/read` over a server's skills (extensions/skills, "Reading Directories"): the direct children
 * of a folder, files with their resource metadata and folders as `inode/directory`, not recursive, paginated; a URI
 * that is no folder gets -32602. A dynamic skill's folders come from its `files()` at the time of the request.
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { RequestContext } from "../../server/context.ts";
import { paginate } from "../../server/pagination.ts";
import { mimeTypeOf } from "../content.ts";
import { isDynamic, skillUri, type DynamicSkill, type SkillCatalog } from "./catalog.ts";

type Result = Record<string, unknown>;

export async function readDirectory(
  catalog: SkillCatalog,
  params: Readonly<Result>,
  context: RequestContext,
  pageSize: number,
): Promise<Result> {
  const uri = params["uri"] as string;
  const children = catalog.folder(uri) ?? (await dynamicFolder(catalog, uri, context));
  if (!children)
    throw new RpcError(ErrorCode.InvalidParams, `${JSON.stringify(uri).slice(0, 200)} is not a directory resource`);
  const resources = [...children]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, folder]) => childResource(catalog, `${uri}/${encodeURIComponent(name)}`, name, folder));
  const { page, nextCursor } = paginate(resources, params["cursor"], pageSize);
  return { resources: page, ...(nextCursor ? { nextCursor } : {}) };
}

function childResource(catalog: SkillCatalog, uri: string, name: string, folder: boolean): Result {
  if (folder) return { uri, name, mimeType: "inode/directory" };
  const file = catalog.file(uri);
  const skill = file?.path === "SKILL.md" ? file.skill : undefined;
  return {
    uri,
    name: skill ? skill.frontmatter.name : name,
    ...(skill ? { description: skill.frontmatter.description } : {}),
    mimeType: mimeTypeOf(name),
    ...(file?.record ? { size: file.record.size } : {}),
  };
}

/** The children of a folder of a dynamic skill (its root or a folder its `files()` name), or undefined. */
async function dynamicFolder(
  catalog: SkillCatalog,
  uri: string,
  context: RequestContext,
): Promise<Map<string, boolean> | undefined> {
  const skill = catalog.skills.find(
    (s): s is DynamicSkill => isDynamic(s) && (uri === skillUri(s.path) || uri.startsWith(`${skillUri(s.path)}/`)),
  );
  if (!skill) return undefined;
  const root = skillUri(skill.path);
  const inside = uri === root ? "" : decodeURIComponent(uri.slice(root.length + 1));
  const files = skill.files ? await skill.files(context) : ["SKILL.md"];
  const children = new Map<string, boolean>();
  const prefix = inside === "" ? "" : `${inside}/`;
  for (const file of files) {
    if (!file.startsWith(prefix)) continue;
    const [name, ...rest] = file.slice(prefix.length).split("/");
    if (name) children.set(name, rest.length > 0 || (children.get(name) ?? false));
  }
  return inside === "" || children.size > 0 ? children : undefined;
}
