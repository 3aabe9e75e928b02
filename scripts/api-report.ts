/**
 * The public API report of `@mcp-gen/runtime`: for every entry of runtime/package.json `exports`, the names it exports
 * with their declarations (sorted by name), written to runtime/api/<entry>.api.md. A change to the public surface is
 * then a visible diff in review; test/package/api-report.test.ts fails when a report is out of date.
 *
 *   npx tsx scripts/api-report.ts          # rewrite runtime/api/*.api.md
 *   npx tsx scripts/api-report.ts --check  # exit 1 naming each stale report
 *
 * Hand-written entries list each export's declaration (interfaces and type aliases as written, functions and classes
 * by their signatures, constants by their type). The generated protocol entries (`./protocol`, `./protocol/*`) list
 * names and kinds only: their declarations are the spec's, already reviewed as the generated bindings' own diff.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNTIME = path.join(ROOT, "runtime");
const OUT = path.join(RUNTIME, "api");

interface Entry {
  /** The `exports` key, e.g. `./http/web`. */
  readonly key: string;
  /** Source modules of the entry (one, or one per revision for `./protocol/*`), with the subpath each stands for. */
  readonly modules: readonly { readonly subpath: string; readonly file: string }[];
  readonly namesOnly: boolean;
}

/** `./dist/x/y.d.ts` → `runtime/x/y.ts`: the source module an `exports` entry's types are built from. */
function sourceOf(types: string): string {
  return path.join(RUNTIME, types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts"));
}

function entries(): Entry[] {
  const manifest = JSON.parse(readFileSync(path.join(RUNTIME, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  const result: Entry[] = [];
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string" || !target.types) continue; // ./package.json
    const generated = target.types.includes("/generated/");
    if (!key.includes("*")) {
      result.push({ key, modules: [{ subpath: key, file: sourceOf(target.types) }], namesOnly: generated });
      continue;
    }
    const [before, after] = target.types.split("*") as [string, string];
    const dir = sourceOf(`${before}x${after}`).split(`${path.sep}x${path.sep}`)[0]!;
    const names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const modules = names.map((name) => ({
      subpath: key.replace("*", name),
      file: sourceOf(`${before}${name}${after}`),
    }));
    result.push({ key, modules, namesOnly: generated });
  }
  return result;
}

/** The report file of an entry: `.` → index, `./http/web` → http-web, `./protocol/*` → protocol-star. */
export function reportName(key: string): string {
  const name = key === "." ? "index" : key.replace(/^\.\//, "").replace(/\*/g, "star").replace(/\//g, "-");
  return `${name}.api.md`;
}

const FORMAT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

function kindOf(declaration: ts.Declaration): string {
  if (ts.isClassDeclaration(declaration)) return "class";
  if (ts.isInterfaceDeclaration(declaration)) return "interface";
  if (ts.isTypeAliasDeclaration(declaration)) return "type";
  if (ts.isFunctionDeclaration(declaration)) return "function";
  if (ts.isEnumDeclaration(declaration)) return "enum";
  if (ts.isVariableDeclaration(declaration)) return "const";
  if (ts.isModuleDeclaration(declaration) || ts.isSourceFile(declaration)) return "namespace";
  return ts.SyntaxKind[declaration.kind];
}

/** Declaration text without bodies or comments, whitespace as written. */
function declarationText(
  checker: ts.TypeChecker,
  name: string,
  symbol: ts.Symbol,
  declaration: ts.Declaration,
): string {
  if (
    ts.isInterfaceDeclaration(declaration) ||
    ts.isTypeAliasDeclaration(declaration) ||
    ts.isEnumDeclaration(declaration)
  )
    return declaration.getText().replace(/^export\s+/, "");
  if (ts.isFunctionDeclaration(declaration)) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    return type
      .getCallSignatures()
      .map((s) => `function ${name}${checker.signatureToString(s, declaration, FORMAT)}`)
      .join("\n");
  }
  if (ts.isClassDeclaration(declaration)) return classText(checker, name, symbol, declaration);
  const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
  return `const ${name}: ${checker.typeToString(type, declaration, FORMAT)}`;
}

function classText(checker: ts.TypeChecker, name: string, symbol: ts.Symbol, declaration: ts.ClassDeclaration): string {
  const heritage = declaration.heritageClauses?.map((h) => ` ${h.getText()}`).join("") ?? "";
  const lines = [`class ${name}${heritage} {`];
  const staticType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
  for (const signature of staticType.getConstructSignatures()) {
    const params = signature.parameters.map((p) => {
      const type = checker.getTypeOfSymbolAtLocation(p, declaration);
      const optional = (p.valueDeclaration as ts.ParameterDeclaration | undefined)?.questionToken ? "?" : "";
      return `${p.name}${optional}: ${checker.typeToString(type, declaration, FORMAT)}`;
    });
    lines.push(`  constructor(${params.join(", ")});`);
  }
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  const members = checker.getPropertiesOfType(instance).filter((m) => {
    const flags = m.valueDeclaration ? ts.getCombinedModifierFlags(m.valueDeclaration) : ts.ModifierFlags.None;
    return !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !m.name.startsWith("#");
  });
  for (const member of members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const type = checker.getTypeOfSymbolAtLocation(member, declaration);
    lines.push(`  ${member.name}: ${checker.typeToString(type, declaration, FORMAT)};`);
  }
  lines.push("}");
  return lines.join("\n");
}

function moduleReport(checker: ts.TypeChecker, program: ts.Program, file: string, namesOnly: boolean): string[] {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`api-report: ${path.relative(ROOT, file)} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => (a.name < b.name ? -1 : 1));
  const out: string[] = [];
  for (const exported of exports) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const typeOnly = exported.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) ?? false;
    const kind = `${typeOnly ? "type-only " : ""}${kindOf(declaration)}`;
    if (namesOnly) {
      out.push(`- \`${exported.name}\` (${kind})`);
      continue;
    }
    out.push(
      `### \`${exported.name}\` (${kind})`,
      "",
      "```ts",
      declarationText(checker, exported.name, symbol, declaration),
      "```",
      "",
    );
  }
  return out;
}

/** Every report, by file name under runtime/api/. */
/**
 * TypeScript prints a type the entry does not export as `import("<absolute path>").Name`; the report names it relative
 * to the package (`import("runtime/client/connection").ClientOptions`), so it reads the same on every machine.
 */
function machineIndependent(text: string): string {
  return text.split(`import("${ROOT.split(path.sep).join("/")}/`).join('import("');
}

export function renderReports(): Map<string, string> {
  const all = entries();
  const files = all.flatMap((e) => e.modules.map((m) => m.file));
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.runtime.json"), (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const entry of all) {
    const lines = [
      `# \`@mcp-gen/runtime${entry.key === "." ? "" : entry.key.slice(1)}\``,
      "",
      "Generated by scripts/api-report.ts from runtime/package.json `exports`. Do not edit: run",
      "`npx tsx scripts/api-report.ts` and review the diff.",
      "",
    ];
    for (const m of entry.modules) {
      if (entry.modules.length > 1) lines.push(`## \`@mcp-gen/runtime${m.subpath.slice(1)}\``, "");
      lines.push(...moduleReport(checker, program, m.file, entry.namesOnly));
      if (entry.namesOnly) lines.push("");
    }
    reports.set(reportName(entry.key), machineIndependent(`${lines.join("\n").trimEnd()}\n`));
  }
  return reports;
}

function main(): number {
  const check = process.argv.includes("--check");
  const reports = renderReports();
  mkdirSync(OUT, { recursive: true });
  let stale = 0;
  for (const [name, text] of reports) {
    const file = path.join(OUT, name);
    let current: string | undefined;
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) {
      process.stderr.write(`api-report: stale: ${path.relative(ROOT, file)}\n`);
      stale++;
    } else writeFileSync(file, text);
  }
  for (const name of readdirSync(OUT).filter((f) => f.endsWith(".api.md") && !reports.has(f))) {
    process.stderr.write(`api-report: ${name} names no entry of runtime/package.json exports\n`);
    stale++;
  }
  if (stale > 0 && check) process.stderr.write("api-report: run `npx tsx scripts/api-report.ts` and review the diff\n");
  return stale > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
