/**
 * Transpiles the runtime and the protocol bindings to plain JavaScript (per file, like `npm run build` but without
 * type-checking or declarations) into a scratch directory inside the project, so a bench can start a server the way
 * a user runs one: `node server.js`, no TypeScript loader. Imports of packages (zod, …) resolve from the project's
 * node_modules because the directory lies inside the project.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  verbatimModuleSyntax: true,
  rewriteRelativeImportExtensions: true,
  sourceMap: false,
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Writes `<outDir>/runtime/**.js` and `<outDir>/generated/protocol/**.js`; returns `outDir`. */
export function transpileRuntime(outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  for (const source of [
    ...tsFiles(path.join(PROJECT_ROOT, "runtime")),
    ...tsFiles(path.join(PROJECT_ROOT, "generated/protocol")),
  ]) {
    const relative = path.relative(PROJECT_ROOT, source);
    const { outputText } = ts.transpileModule(readFileSync(source, "utf8"), {
      compilerOptions: COMPILER_OPTIONS,
      fileName: relative,
    });
    const target = path.join(outDir, relative.replace(/\.ts$/, ".js"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module", private: true }));
  return outDir;
}
