/**
 * Every figure in the docs names its source (test/docs/figures.ts); the sizes are compared with the bench's after its
 * smoke run in CI (test/docs/long-commands.ts). Here: nothing is unmarked, every name and command exists, and the
 * comparison itself reports a stale figure.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../generator/cli-run.ts";
import { CHECKED_ELSEWHERE, FIGURES, numbersIn, readDocsFigures, staleFigures } from "./figures.ts";

const scripts = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).scripts as Record<string, string>;

/** Why a measured marker's command is not one this repository has, or undefined when it is. */
function missingCommand(command: string): string | undefined {
  const benchFile = /\bbench\/[\w-]+\.ts\b/.exec(command)?.[0];
  if (benchFile) return existsSync(path.join(REPO, benchFile)) ? undefined : `${benchFile} does not exist`;
  const script = /^npm run ([\w:-]+)/.exec(command)?.[1];
  if (script) return script in scripts ? undefined : `package.json has no script ${script}`;
  if (command === ".ci/run") return undefined;
  return "names no bench file, npm script or .ci/run";
}

describe("figures in the docs", () => {
  const { figures, measured, problems } = readDocsFigures(REPO);

  it("are all in a figure or measured marker", () => {
    expect(problems).toEqual([]);
    expect(figures.length).toBeGreaterThan(5);
    expect(measured.length).toBeGreaterThan(3);
  });

  it("name a known source", () => {
    const unknown = figures.filter(({ name }) => !(name in FIGURES) && !(name in CHECKED_ELSEWHERE));
    expect(unknown).toEqual([]);
    for (const [name, checker] of Object.entries(CHECKED_ELSEWHERE)) {
      expect(figures.some((figure) => figure.name === name)).toBe(true);
      expect(readFileSync(path.join(REPO, checker), "utf8")).toContain("installed with zod");
    }
    expect(Object.keys(FIGURES).filter((name) => !figures.some((figure) => figure.name === name))).toEqual([]);
  });

  it("say which existing command measured them, and when", () => {
    expect(
      measured.map(({ file, line, command }) => [file, line, missingCommand(command)]).filter(([, , why]) => why),
    ).toEqual([]);
  });

  it("are compared with what the bench prints, and a stale one is reported", () => {
    const bundleSection = [
      "server                                 platform   minified    gzip",
      `mcp-gen weather, all revisions         workerd     999 KB    99 KB`,
    ];
    const stale = staleFigures(REPO, new Map([["bundle.ts", bundleSection]]));
    const allRevisions = figures.find(({ name }) => name === "bundle:all")!;
    expect(stale).toContain(
      `${allRevisions.file}:${allRevisions.line}: figure bundle:all says "${allRevisions.text}", bench/bundle.ts prints 999 / 99`,
    );
    const matching = [
      `mcp-gen weather, all revisions         workerd  ${numbersIn(allRevisions.text)
        .map((n) => `${n} KB`)
        .join("  ")}`,
    ];
    expect(
      staleFigures(REPO, new Map([["bundle.ts", matching]])).filter((line) => line.includes("bundle:all ")),
    ).toEqual([]);
    expect(stale.some((line) => line.includes("figure footprint:cli") && line.includes("printed no such figure"))).toBe(
      true,
    );
  });
});
