/**
 * A package is a folder (issue 22 item 1): what `npm pack` puts in each tarball comes from that package's folder
 * alone, and holds what the package's code loads at run time. Read from `npm pack --dry-run --json` (the list npm
 * would publish; `--ignore-scripts`, so the build already in place is listed rather than rebuilt under other tests).
 * Also: no shipped source asks where it runs from; the generator and the runtime find each other and their own files
 * through Node's package resolution only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/repo-root.ts";

function packed(workspace: "runtime" | "generator"): string[] {
  const out = execFileSync(
    "npm",
    ["pack", "-w", workspace, "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return pack.files.map((f) => f.path).sort();
}

/** Files under `dir` (relative, `/`-separated), recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

function expectInside(folder: string, files: readonly string[]): void {
  const root = realpathSync(path.join(REPO_ROOT, folder));
  for (const file of files) {
    const real = realpathSync(path.join(root, file));
    expect(real.startsWith(root + path.sep), `${folder}: ${file} → ${real}`).toBe(true);
  }
}

/** The folders in `runtime/generated/<kind>`: the names a `./<kind>/*` export pattern stands for. */
function generatedNames(kind: "protocol" | "extensions"): string[] {
  return readdirSync(path.join(REPO_ROOT, "runtime/generated", kind), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}
const revisions = generatedNames("protocol");
const extensions = generatedNames("extensions");

describe("npm pack -w runtime", () => {
  const files = packed("runtime");

  it("lists only files of runtime/", () => {
    expect(files.length).toBeGreaterThan(50);
    expectInside("runtime", files);
  });

  /** A pattern's `*` stands for each built-in revision (`generated/protocol/*`) or extension (`generated/extensions/*`). */
  const namesFor = (file: string): string[] => {
    if (file.includes("generated/protocol/")) return revisions;
    if (file.includes("generated/extensions/")) return extensions;
    throw new Error(`an exports pattern this test does not know how to expand: ${file}`);
  };

  it("holds every `exports` target and every built-in revision's ir.json (what mcp-gen reads from it)", () => {
    if (!existsSync(path.join(REPO_ROOT, "runtime/dist"))) throw new Error("runtime/dist is missing: npm run build");
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "runtime/package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
    };
    const expected: string[] = [];
    for (const target of Object.values(pkg.exports)) {
      const built = typeof target === "string" ? [target] : [target["types"]!, target["default"]!];
      for (const file of built.map((f) => f.replace(/^\.\//, "")))
        expected.push(...(file.includes("*") ? namesFor(file).map((r) => file.replace("*", r)) : [file]));
    }
    expect(revisions.length).toBeGreaterThan(0);
    expect(extensions.length).toBeGreaterThan(0);
    expected.push(...revisions.map((r) => `generated/protocol/${r}/ir.json`));
    expect(expected.filter((f) => !files.includes(f))).toEqual([]);
  });

  it("ships no TypeScript source (the `@mcp-gen/source` condition serves this repository only)", () => {
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });
});

describe("npm pack -w generator", () => {
  const files = packed("generator");

  it("lists only files of generator/", () => {
    expect(files.length).toBeGreaterThan(50);
    expectInside("generator", files);
  });

  it("holds its bin, the manifest schema and every template, which the CLI reads at run time", () => {
    const templates = filesUnder(path.join(REPO_ROOT, "generator/templates")).map((f) => `templates/${f}`);
    expect(templates.length).toBeGreaterThan(0);
    const expected = ["bin/mcp-gen.js", "dist/cli.js", "manifest/mcp-manifest.schema.json", ...templates];
    expect(expected.filter((f) => !files.includes(f))).toEqual([]);
  });

  it("its dist/ is the generator compiled and nothing else: each file has a source in generator/", () => {
    const compiled = files.filter((f) => f.startsWith("dist/"));
    expect(compiled.length).toBeGreaterThan(50);
    const sourceless = compiled.filter(
      (f) => !existsSync(path.join(REPO_ROOT, "generator", f.replace(/^dist\//, "").replace(/\.js$/, ".ts"))),
    );
    expect(sourceless).toEqual([]);
  });
});

describe("shipped sources find things through Node's package resolution, never by their own location", () => {
  /** Every TypeScript source the two packages compile (their dist/ and dependencies aside). */
  function sources(folder: string): string[] {
    return filesUnder(path.join(REPO_ROOT, folder))
      .filter((f) => f.endsWith(".ts") && !/^(dist|node_modules|\.staging)\//.test(f))
      .map((f) => `${folder}/${f}`);
  }
  const shipped = [...sources("runtime"), ...sources("generator")];

  it("no source climbs out of its package or names the repository", () => {
    expect(shipped.length).toBeGreaterThan(100);
    const offenders = shipped.filter((file) => {
      const code = readFileSync(path.join(REPO_ROOT, file), "utf8");
      return /REPO_ROOT|["'`](\.\.\/)+(runtime|generator|templates|scripts|test)\//.test(code);
    });
    expect(offenders).toEqual([]);
  });

  it("its own location is used only to resolve a package (`createRequire(import.meta.url)` + `<package>/package.json`)", () => {
    const uses: string[] = [];
    for (const file of shipped) {
      const code = readFileSync(path.join(REPO_ROOT, file), "utf8");
      for (const match of code.matchAll(/import\.meta\.\w+|__dirname|__filename/g)) {
        const line = code.slice(code.lastIndexOf("\n", match.index) + 1, code.indexOf("\n", match.index));
        if (
          !/createRequire\(import\.meta\.url\)(\.resolve)?\("(mcp-gen|@mcp-gen\/runtime)\/package\.json"\)/.test(line)
        )
          uses.push(`${file}: ${line.trim()}`);
      }
    }
    expect(uses).toEqual([]);
  });
});
