/**
 * Skill files embedded in generated code (`mcp-gen generate` writes them into `skills.ts`), so a server bundled for
 * an edge runtime serves its skills with no file system: UTF-8 files as text, others as Base64.
 */
import { bytesFromBase64 } from "../../transport/base64.ts";
import type { SkillFileLoader } from "./catalog.ts";

/** One embedded file: its text, or its bytes in Base64. */
export type EmbeddedSkillFile = { readonly text: string } | { readonly base64: string };

/** A loader over embedded files keyed `<skill-path>/<file-path>`; a missing key is an error naming it. */
export function embeddedSkillFiles(files: Readonly<Record<string, EmbeddedSkillFile>>): SkillFileLoader {
  return (skill, file) => {
    const key = `${skill}/${file}`;
    const found = Object.hasOwn(files, key) ? files[key] : undefined;
    if (!found) throw new Error(`no embedded content for skill file ${key}`);
    if ("text" in found) return found.text;
    const bytes = bytesFromBase64(found.base64);
    if (!bytes) throw new Error(`the embedded content of skill file ${key} is not Base64`);
    return bytes;
  };
}
