/**
 * Figures in the docs come from a command a test runs (issue 35.4: bundle sizes, install sizes and test counts in
 * the docs had gone stale by a fifth). Every size, speed, count or ratio in README.md and docs/*.md sits in a marker
 * that names where it comes from:
 *
 * - `<!--figure NAME-->250 KB / 63 KB<!--/figure-->`: a figure `npm run bench -- --smoke` prints exactly (sizes are
 *   deterministic); NAME is a key of FIGURES below, and test/docs/long-commands.ts compares the numbers in the text
 *   with the bench's, in order, after its smoke run (CI's long commands). The README's install size is the user
 *   flow's (test/package/user-flow.sh compares it).
 * - `<!--measured COMMAND, YYYY-MM-DD-->…<!--/measured-->`: a timing or ratio, which varies run to run and is never
 *   asserted: the marker says which command measured it and when, and figures.test.ts checks the command exists.
 *
 * figures.test.ts fails on a figure outside any marker, an unknown NAME or a command that does not exist.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * A size, speed, count or ratio as the docs write them: `250 KB`, `1.4–1.8×`, `98 packages`, `40 ms`, `713 s`. A
 * duration on a line that names a setting (a default, a timeout, a limit, an option `…Ms`) is a setting's value,
 * not a measurement, and is left to the options table.
 */
export const FIGURE_PATTERN =
  /\b\d[\d.,]*(?:–\d[\d.,]*)? ?(?:KB|MB|GB|ms|µs|s|minutes|calls\/s|req\/s|tests|packages|instantiations|×)(?![\w-])/g;
const SETTING = /default|timeout|limit|Ms`|--smoke/i;
const isDuration = (figure: string) => / ?(?:s|minutes|ms)$/.test(figure);

/** A bench section's lines → the numbers the figure must show, and how far each may be off (default: exact). */
export interface FigureSource {
  /** The bench file whose `== <file>` section of `npm run bench -- --smoke` holds the figure. */
  readonly bench: string;
  readonly read: (lines: readonly string[]) => readonly number[] | undefined;
  readonly tolerance?: number;
}

/** The minified and gzip KB of a bundle row of bench/bundle.ts (`<server>  workerd  250 KB  63 KB`). */
function bundleRow(server: string) {
  return (lines: readonly string[]) => {
    const row = lines.find((line) => line.startsWith(server) && /\sworkerd\s/.test(line));
    const sizes = row?.match(/(\d+) KB/g)?.map((size) => Number.parseInt(size, 10));
    return sizes?.length === 2 ? sizes : undefined;
  };
}

/** The packages and MB on disk of a row of bench/footprint.ts. */
function footprintRow(label: string) {
  return (lines: readonly string[]) => {
    const cells = lines
      .find((line) => line.startsWith(label))
      ?.slice(56)
      .trim()
      .split(/\s+/);
    return cells && cells.length >= 2 ? [Number(cells[0]), Math.round(Number(cells[1]))] : undefined;
  };
}

export const FIGURES: Readonly<Record<string, FigureSource>> = {
  "bundle:all": { bench: "bundle.ts", read: bundleRow("mcp-gen weather, all revisions") },
  "bundle:two": { bench: "bundle.ts", read: bundleRow("mcp-gen weather, 2 revisions") },
  "bundle:sdk-v2": { bench: "bundle.ts", read: bundleRow("SDK v2 createMcpHandler") },
  "bundle:all-minus-two": {
    bench: "bundle.ts",
    read: (lines) => {
      const [all, two] = [
        bundleRow("mcp-gen weather, all revisions")(lines),
        bundleRow("mcp-gen weather, 2 revisions")(lines),
      ];
      return all && two ? [all[0]! - two[0]!] : undefined;
    },
    tolerance: 2,
  },
  "bundle:one-revision": {
    bench: "bundle.ts",
    // The holdings table's first column (all revisions) for each revision's bindings: the smallest and the largest.
    read: (lines) => {
      const sizes = lines
        .filter((line) => /^\s+runtime\/generated\/protocol\/\d{4}-\d{2}-\d{2}\s/.test(line))
        .map((line) => Number.parseInt(/(\d+) KB/.exec(line)?.[1] ?? "NaN", 10));
      return sizes.length > 1 ? [Math.min(...sizes), Math.max(...sizes)] : undefined;
    },
    tolerance: 1,
  },
  "footprint:sdk-v1": {
    bench: "footprint.ts",
    read: footprintRow("SDK v1 server"),
    tolerance: 1,
  },
  "footprint:cli": { bench: "footprint.ts", read: footprintRow("mcp-gen CLI"), tolerance: 1 },
};

/** Figures another test compares: the README's install size, which the user flow measures on every CI run. */
export const CHECKED_ELSEWHERE: Readonly<Record<string, string>> = { install: "test/package/user-flow.sh" };

export interface MarkedFigure {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly text: string;
}

export interface DocsFigures {
  readonly figures: readonly MarkedFigure[];
  /** `measured` markers: the command and date each names. */
  readonly measured: ReadonlyArray<{ file: string; line: number; command: string; date: string }>;
  /** Figures outside any marker, and markers that do not parse. */
  readonly problems: readonly string[];
}

/** README.md and every docs/*.md, relative to the repository root. */
export function docsFiles(repo: string): string[] {
  const docs = readdirSync(path.join(repo, "docs")).filter((file) => file.endsWith(".md"));
  return ["README.md", ...docs.sort().map((file) => `docs/${file}`)];
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Reads the markers and the unmarked figures of the docs. */
export function readDocsFigures(repo: string): DocsFigures {
  const figures: MarkedFigure[] = [];
  const measured: { file: string; line: number; command: string; date: string }[] = [];
  const problems: string[] = [];
  for (const file of docsFiles(repo)) {
    let text = readFileSync(path.join(repo, file), "utf8");
    const blank = (match: string) => match.replace(/[^\n]/g, " ");
    text = text.replace(
      /<!--figure ([\w:-]+)-->([\s\S]*?)<!--\/figure-->/g,
      (match, name: string, body: string, at: number) => {
        figures.push({ file, line: lineAt(text, at), name, text: body });
        return blank(match);
      },
    );
    text = text.replace(/<!--measured ([^>]*?)-->[\s\S]*?<!--\/measured-->/g, (match, header: string, at: number) => {
      const parsed = /^(.+), (\d{4}-\d{2}-\d{2})$/.exec(header.trim());
      if (parsed) measured.push({ file, line: lineAt(text, at), command: parsed[1]!, date: parsed[2]! });
      else problems.push(`${file}:${lineAt(text, at)}: a measured marker names no "COMMAND, YYYY-MM-DD": ${header}`);
      return blank(match);
    });
    for (const match of text.matchAll(/<!--\/?(?:figure|measured)\b[^>]*-->/g)) {
      problems.push(`${file}:${lineAt(text, match.index)}: an unpaired marker ${match[0]}`);
    }
    for (const match of text.matchAll(FIGURE_PATTERN)) {
      const line = text.split("\n")[lineAt(text, match.index) - 1]!;
      if (isDuration(match[0]) && SETTING.test(line)) continue;
      problems.push(`${file}:${lineAt(text, match.index)}: "${match[0]}" is in no figure or measured marker`);
    }
  }
  return { figures, measured, problems };
}

/** The numbers a figure's text shows, in order (`1,850` is 1850; `16–19` is 16 and 19). */
export const numbersIn = (text: string): number[] =>
  [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => Number(match[0].replace(/,/g, "")));

/**
 * Compares every `figure` marker with the bench sections of a `npm run bench -- --smoke` run (`== <file>` → its
 * lines); returns one line per stale or unreadable figure.
 */
export function staleFigures(repo: string, sections: ReadonlyMap<string, readonly string[]>): string[] {
  const stale: string[] = [];
  for (const { file, line, name, text } of readDocsFigures(repo).figures) {
    const source = FIGURES[name];
    if (source === undefined) continue; // figures.test.ts reports it
    const printed = source.read(sections.get(source.bench) ?? []);
    if (printed === undefined) {
      stale.push(`${file}:${line}: figure ${name}: bench/${source.bench} printed no such figure`);
      continue;
    }
    const shown = numbersIn(text);
    const tolerance = source.tolerance ?? 0;
    const off = shown.length !== printed.length || shown.some((n, i) => Math.abs(n - printed[i]!) > tolerance);
    if (off)
      stale.push(`${file}:${line}: figure ${name} says "${text}", bench/${source.bench} prints ${printed.join(" / ")}`);
  }
  return stale;
}

/** `npm run bench -- --smoke` output → its `== <file>` sections (bench/run.ts prints one header per bench file). */
export function benchSections(stdout: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of stdout.split("\n")) {
    const header = /^== (\S+\.ts)/.exec(line)?.[1];
    if (header !== undefined) sections.set(header, (current = []));
    else current?.push(line);
  }
  return sections;
}
