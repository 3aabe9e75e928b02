/**
 * mcp-gen runtime: the Skills extension (`@mcp-gen/runtime/skills`; `io.modelcontextprotocol/skills`, SEP-2640), on
 * the extension interfaces of the core entry. Docs: docs/manifest.md#skills.
 *
 * Server: `new McpServer({ …, extensions: [skills({ skills: skillCatalog, load: embeddedSkillFiles(skillFiles) })] })`
 * (a generated server does this from the manifest's `skills:`); dynamic skills (`resources: "dynamic"`) from code.
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
