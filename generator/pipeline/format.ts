/** The format stage of both pipelines: prettier (pinned, inline options) over every TypeScript file. */
import prettier from "prettier";
import type { GeneratedFile } from "../emit/generated-file.ts";

/** Inline prettier options: a user's .prettierrc never changes generated output. */
export const PRETTIER_OPTIONS: prettier.Options = {
  parser: "typescript",
  printWidth: 120,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

export async function formatTypeScript(source: string): Promise<string> {
  return prettier.format(source, PRETTIER_OPTIONS);
}

export async function formatFiles(files: readonly GeneratedFile[]): Promise<GeneratedFile[]> {
  return Promise.all(
    files.map(async (f) => (f.path.endsWith(".ts") ? { path: f.path, content: await formatTypeScript(f.content) } : f)),
  );
}
