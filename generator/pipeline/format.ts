/** The format stage of both pipelines: prettier (pinned, inline options) over every TypeScript file. */
import { formatTypeScript, type GeneratedFile } from "../emit/generated-file.ts";

export async function formatFiles(files: readonly GeneratedFile[]): Promise<GeneratedFile[]> {
  return Promise.all(
    files.map(async (f) => (f.path.endsWith(".ts") ? { path: f.path, content: await formatTypeScript(f.content) } : f)),
  );
}
