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
 */
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
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

describe.each(COMPILERS)("$name", ({ name, tsc: compiler, version }) => {
  it("is the compiler it says", () => {
    expect(execFileSync(process.execPath, [compiler, "--version"], { encoding: "utf8" })).toMatch(version);
  });

  it("generated code, examples and type tests compile (strict, exactOptionalPropertyTypes, noUnusedLocals)", () => {
    const output = tsc(compiler, path.join(HERE, "tsconfig.json"));
    // Everything tsc printed, except unused-symbol diagnostics outside generated files.
    const problems = output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .filter((line) => !(UNUSED.test(line) && !GENERATED.test(line)));
    expect(problems).toEqual([]);
  }, 180_000);

  it("a wrong structuredContent fails tsc at the wrong field, naming it or its expected type", async () => {
    const dir = path.join(SCRATCH, name.replace(/\W+/g, "-"));
    await mkdir(dir, { recursive: true });
    // One wrong handler per line: the diagnostic must start on that line, at the column of the field named.
    const lines = [
      'import type { ServerHandlers } from "../../../examples/weather/generated/index.ts";',
      'type Forecast = ServerHandlers["tools"]["get_forecast"];',
      'export const wrongValue: Forecast = () => ({ structuredContent: { city: "Paris", units: "kelvin", days: [] } });',
      'export const missingField: Forecast = () => ({ structuredContent: { city: "Paris", units: "metric" } });',
      'export const asyncWrong: Forecast = async () => ({ structuredContent: { city: "P", units: "kelvin", days: [] } });',
      'export const inHandlers: Pick<ServerHandlers, "tools"> = { tools: { get_forecast: () => ({ structuredContent: { city: 1, units: "metric", days: [] } }), get_alerts: () => ({ structuredContent: { alerts: [] } }), convert_temperature: () => ({ content: [] }) } };',
    ];
    await writeFile(path.join(dir, "wrong.ts"), `${lines.join("\n")}\n`);
    await writeFile(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../../tsconfig.json", include: ["wrong.ts"] }),
    );
    const output = tsc(compiler, path.join(dir, "tsconfig.json"));
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
  }, 120_000);
});
