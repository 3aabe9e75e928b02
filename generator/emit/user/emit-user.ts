/**
 * `UserModel` → every (unformatted) file of a manifest's output folder. No file-system access: the pipeline
 * formats and writes.
 */
import type { UserModel } from "../../manifest/user-model.ts";
import { headerLine, type GeneratedFile } from "../generated-file.ts";
import { emitUserClientFile } from "./emit-user-client.ts";
import { emitUserServerFile } from "./emit-user-server.ts";
import {
  emitUserDefinitionsFile,
  emitUserSchemasFile,
  emitUserTypesFile,
  type SchemasEmitOptions,
} from "./emit-user-types.ts";
import { renderTemplate } from "./render-template.ts";

/** The header of every file generated from a manifest (the manifest path is relative to the output folder). */
export function userHeader(model: UserModel): string {
  return `${headerLine(model.source.path)}\n// Regenerate with: mcp-gen generate\n\n`;
}

export function emitUserFiles(model: UserModel, options: SchemasEmitOptions = {}): GeneratedFile[] {
  const header = userHeader(model);
  const files: GeneratedFile[] = [
    { path: "types.ts", content: header + emitUserTypesFile(model) },
    { path: "schemas.ts", content: header + emitUserSchemasFile(model, options) },
    { path: "definitions.ts", content: header + emitUserDefinitionsFile(model) },
    { path: "server.ts", content: emitUserServerFile(model, header) },
    { path: "client.ts", content: emitUserClientFile(model, header) },
    { path: "index.ts", content: renderTemplate("user/index.ts.hbs", { header, ext: model.importExtension }) },
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
