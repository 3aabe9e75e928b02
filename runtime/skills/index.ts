/**
 * mcp-gen runtime: the Skills extension (`@mcp-gen/runtime/skills`; `io.modelcontextprotocol/skills`, SEP-2640), on
 * the extension interfaces of the core entry. Docs: docs/manifest.md#skills.
 *
 * Server: `new McpServer({ …, extensions: [skills({ skills: skillCatalog, load: embeddedSkillFiles(skillFiles) })] })`
 * (a generated server does this from the manifest's `skills:`); dynamic skills (`resources: "dynamic"`) from code.
 *
 * Client: `new McpClient({ …, extensions: [skillsClient()] })`, then `skillsOf(client)`: `list()`, `get(uri)`,
 * `read(uri)` (verified against the held entry: size, digest, frontmatter; `SkillVerificationError` otherwise) and
 * `readDirectory(uri)`. Nothing is read before `read` asks for it.
 */
export { skills, skillEntry, SKILLS_EXTENSION_ID, type SkillsOptions } from "./server/feature.ts";
export { embeddedSkillFiles, type EmbeddedSkillFile } from "./server/embedded.ts";
export {
  skillUri,
  type DynamicSkill,
  type SkillDefinition,
  type SkillFileLoader,
  type SkillFileRecord,
  type SkillFrontmatter,
  type StaticSkill,
} from "./server/catalog.ts";

export {
  skillsClient,
  skillsOf,
  type DirectoryEntry,
  type SkillListing,
  type SkillsApi,
  type SkillsClientOptions,
} from "./client/feature.ts";
export type { SkillFile } from "./client/verify.ts";
export { SkillEntryError, SkillVerificationError, type SkillVerificationReason } from "./client/errors.ts";
export type { Skill, SkillResource } from "../generated/extensions/skills/types.ts";
