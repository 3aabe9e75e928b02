/**
 * `UserModel` → `skills.ts` (only when the manifest declares `skills`): the catalog (each skill's path, frontmatter
 * and every file's SHA-256 and size, as read at generation time) and every file's content, embedded, so a server
 * serves its skills with no file system (edge runtimes too); `createServer` serves them through `skills()` of
 * `@mcp-gen/runtime/skills`, which refuses a file whose bytes are not the ones its entry describes.
 */
import type { UserModel } from "../../manifest/user-model.ts";
import { typeUse } from "../printer.ts";
import { runtime } from "../runtime-symbols.ts";
import { jsonLiteral } from "./json-literal.ts";
import { createUserPrinter } from "./user-printer.ts";

export function emitUserSkillsFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  const skills = model.skills;
  f.print(
    "/** The skills of the manifest (`skills`), as read at generation time: each file with its SHA-256 and size. */",
  );
  f.print("export const skillCatalog: readonly ", typeUse(runtime.StaticSkill), "[] = [");
  for (const skill of skills?.skills ?? []) {
    f.print(`  /** ${skill.folder}. */`);
    f.print(
      `  ${jsonLiteral({ path: skill.path, frontmatter: skill.frontmatter, files: skill.files.map((file) => ({ ...file })) })},`,
    );
  }
  f.print("];");
  f.print("");
  f.print("/** Every skill file's content by `<skill path>/<file path>`: text when UTF-8, else Base64. */");
  f.print("export const skillFiles: Readonly<Record<string, ", typeUse(runtime.EmbeddedSkillFile), ">> = {");
  for (const { key, ...content } of skills?.contents ?? [])
    f.print(`  ${JSON.stringify(key)}: ${jsonLiteral(content)},`);
  f.print("};");
  f.print("");
  f.print("/** Whether the server serves `resources/directory/read` (the manifest's `skills.directoryRead`). */");
  f.print(`export const skillsDirectoryRead = ${skills?.directoryRead === true};`);
  return f.render(header);
}
