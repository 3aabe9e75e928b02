/**
 * `UserModel` → every (unformatted) file of a manifest's output folder. Pure: no file-system access; the pipeline
 * formats and writes.
 */
import type { UserModel } from "../../manifest/user-model.ts";
import { headerLine, type GeneratedFile } from "../generated-file.ts";
import { emitUserClientFile } from "./emit-user-client.ts";
import { emitUserServerFile } from "./emit-user-server.ts";
import { emitUserDefinitionsFile, emitUserSchemasFile, emitUserTypesFile } from "./emit-user-types.ts";
import { emitUserSkillsFile } from "./emit-user-skills.ts";
import { emitUserViewsFile } from "./emit-user-views.ts";
import { emitViewModules } from "./emit-user-view-modules.ts";
import { createUserPrinter } from "./user-printer.ts";

/** The header of every file generated from a manifest (the manifest path is relative to the output folder). */
function userHeader(model: UserModel): string {
  return `${headerLine(model.source.path)}\n// Regenerate with: mcp-gen generate\n\n`;
}

/** `index.ts`: re-exports every other file. */
function emitUserIndexFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  const views = model.views.length > 0 ? ["views"] : [];
  const skills = model.skills ? ["skills"] : [];
  for (const name of ["types", "schemas", "definitions", ...views, ...skills, "server", "client"])
    f.print(`export * from ${JSON.stringify(f.sibling(name))};`);
  return f.render(header);
}

/** What the emitters copy rather than print: the view side of MCP Apps (templates/apps/app-view.ts), read by the pipeline. */
export interface UserAssets {
  readonly appViewSource: string;
}

export function emitUserFiles(model: UserModel, assets?: UserAssets): GeneratedFile[] {
  const header = userHeader(model);
  const files: GeneratedFile[] = [
    { path: "types.ts", content: emitUserTypesFile(model, header) },
    { path: "schemas.ts", content: emitUserSchemasFile(model, header) },
    { path: "definitions.ts", content: emitUserDefinitionsFile(model, header) },
    { path: "server.ts", content: emitUserServerFile(model, header) },
    { path: "client.ts", content: emitUserClientFile(model, header) },
    { path: "index.ts", content: emitUserIndexFile(model, header) },
    ...(model.views.length > 0 ? [{ path: "views.ts", content: emitUserViewsFile(model, header) }] : []),
    ...(model.skills ? [{ path: "skills.ts", content: emitUserSkillsFile(model, header) }] : []),
    ...emitViewModules(model, header, assets?.appViewSource),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
