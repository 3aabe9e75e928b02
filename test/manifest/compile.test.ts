/**
 * Compile check, under TypeScript 5.9 (`typescript`) and 7 (`typescript7`, the native compiler `npm i -D typescript`
 * installs now): the golden outputs, both examples (generated stubs plus handwritten handlers) and the type tests
 * (`@ts-expect-error` for wrong inputs, wrong outputs and missing handlers) type-check under the strict tsconfig,
 * with `noUnusedLocals`/`noUnusedParameters` on, as many user projects have them. Unused-symbol diagnostics count
 * only in generated files (the runtime and other hand-written code are held to the repository's tsconfig).
 * Generated schemas.ts files are checked too: each validator is typed through `exactly<T>()`, so a validator that
 * disagrees with its declared type fails here (differential.test.ts compares both with an independent oracle).
 * Then the diagnostics a user reads: a handler returning a wrong `structuredContent` fails tsc at the wrong field,
 * naming it or its expected type, under both compilers (not "not assignable to type 'undefined'", what TS 7 said when
 * it explained the error against the `isError` branch of `StructuredToolResult`).
 * Each compiler runs once over both (the wrong handlers' file added to the strict project's files): the first check
 * reads every diagnostic outside that file, the second only that file's.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const require = createRequire(import.meta.url);
const UNUSED = /error TS(6133|6138|6192|6196|6198|6199|6205):/;
const GENERATED = /^(test\/manifest\/golden\/|examples\/[^/]+\/generated\/)/;
const SCRATCH = path.join(REPO, ".tmp", `manifest-compile-${process.pid}`);

/** Both compilers, each with the version it must report (so the two runs can never be the same compiler). */
const COMPILERS = [
  { name: "TypeScript 5.9", tsc: require.resolve("typescript/bin/tsc"), version: /^Version 5\.9\./ },
  {
    name: "TypeScript 7",
    tsc: path.join(path.dirname(require.resolve("typescript7/package.json")), "bin/tsc"),
    version: /^Version 7\./,
  },
];

/** tsc's output (`--pretty false`: one `file(line,col): error TS…` line per diagnostic, continuation lines indented). */
function tsc(compiler: string, project: string): string {
  try {
    execFileSync(process.execPath, [compiler, "--noEmit", "--pretty", "false", "-p", project], {
      encoding: "utf8",
      cwd: REPO,
    });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

/** One wrong handler per line: its diagnostic must start on that line, at the column of the field named. */
const WRONG_LINES = [
  'import type { ServerHandlers } from "../../../examples/weather/generated/index.ts";',
  'type Forecast = ServerHandlers["tools"]["get_forecast"];',
  'export const wrongValue: Forecast = () => ({ structuredContent: { city: "Paris", units: "kelvin", days: [] } });',
  'export const missingField: Forecast = () => ({ structuredContent: { city: "Paris", units: "metric" } });',
  'export const asyncWrong: Forecast = async () => ({ structuredContent: { city: "P", units: "kelvin", days: [] } });',
  'export const inHandlers: Pick<ServerHandlers, "tools"> = { tools: { get_forecast: () => ({ structuredContent: { city: 1, units: "metric", days: [] } }), get_alerts: () => ({ structuredContent: { alerts: [] } }), convert_temperature: () => ({ content: [] }) } };',
];

/** Per compiler, its diagnostics over the strict project plus wrong.ts: those in wrong.ts and all the others. */
const checked = new Map<string, { wrong: string; rest: string }>();
function check(name: string, compiler: string): { wrong: string; rest: string } {
  const done = checked.get(name);
  if (done) return done;
  const dir = path.join(SCRATCH, name.replace(/\W+/g, "-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "wrong.ts"), `${WRONG_LINES.join("\n")}\n`);
  // The strict project (test/manifest/tsconfig.json) with wrong.ts added: its `include`, relative to this folder.
  const project = JSON.parse(readFileSync(path.join(HERE, "tsconfig.json"), "utf8")) as { include: string[] };
  const include = project.include.map((glob) => path.relative(dir, path.join(HERE, glob)).split(path.sep).join("/"));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: path.relative(dir, path.join(HERE, "tsconfig.json")),
      include: [...include, "wrong.ts"],
    }),
  );
  // Each diagnostic with its continuation lines, told apart by the file it starts in.
  const diagnostics = tsc(compiler, path.join(dir, "tsconfig.json")).split(/\n(?=\S)/);
  const inWrong = (d: string) => /^\S*wrong\.ts\(/.test(d);
  const result = {
    wrong: diagnostics.filter(inWrong).join("\n"),
    rest: diagnostics.filter((d) => !inWrong(d)).join("\n"),
  };
  checked.set(name, result);
  return result;
}

describe.each(COMPILERS)("$name", ({ name, tsc: compiler, version }) => {
  it("is the compiler it says", () => {
    expect(execFileSync(process.execPath, [compiler, "--version"], { encoding: "utf8" })).toMatch(version);
  });

  it("generated code, examples and type tests compile (strict, exactOptionalPropertyTypes, noUnusedLocals)", () => {
    const output = check(name, compiler).rest;
    // Everything tsc printed, except unused-symbol diagnostics outside generated files.
    const problems = output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .filter((line) => !(UNUSED.test(line) && !GENERATED.test(line)));
    expect(problems).toEqual([]);
  }, 180_000);

  it("a wrong structuredContent fails tsc at the wrong field, naming it or its expected type", () => {
    const lines = WRONG_LINES;
    const output = check(name, compiler).wrong;
    /** The diagnostic (with its continuation lines) that starts on the given 1-based line. */
    const at = (line: number): { column: number; text: string } => {
      const diagnostic = output.split(/\n(?=\S)/).find((d) => d.includes(`wrong.ts(${line},`));
      const match = /wrong\.ts\(\d+,(\d+)\): (error TS[\s\S]*)/.exec(diagnostic ?? "");
      if (!match) throw new Error(`no diagnostic on line ${line} of:\n${output}`);
      return { column: Number(match[1]), text: match[2]! };
    };
    const columnOf = (line: number, token: string) => lines[line - 1]!.indexOf(token) + 1;
    const units = /Type '"kelvin"' is not assignable to type '("metric" \| "imperial"|"imperial" \| "metric")'/;

    expect(at(3).column).toBe(columnOf(3, "units"));
    expect(at(3).text).toMatch(units);
    expect(at(4).text).toMatch(/Property 'days' is missing in type .* but required in type 'GetForecastOutput'/);
    expect(at(5).text).toMatch(/The types of 'structuredContent\.units' are incompatible/);
    expect(at(5).text).toMatch(units);
    expect(at(6).column).toBe(columnOf(6, "city: 1"));
    expect(at(6).text).toMatch(/Type 'number' is not assignable to type 'string'/);
    expect(output).not.toContain("type 'undefined'");
    expect(output.match(/^\S*wrong\.ts\(.*error TS/gm)).toHaveLength(4); // one per wrong handler, nothing else there
  }, 180_000);
});
