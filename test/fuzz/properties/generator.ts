/**
 * Generator inputs an attacker controls (issue 20): `tools/list` answers with hostile tool names, property keys,
 * patterns, `$defs` names, `$ref` graphs and depths. Each case is served by a runtime server, read by `import`'s own
 * code (`readServer` over an in-memory connection), turned into manifest text and generated (`parseManifest`,
 * `emitUserFiles`: the pipeline `generate` runs, without prettier). Oracle, per case: the generator either refuses it
 * with a `ManifestError` (only when the case holds something refusable: a pattern invalid under the `u` flag, nesting
 * past the depth limit) or emits code; then, per batch of cases, one `tsc` run over every emitted folder must report
 * nothing, and each case's code is loaded and every tool called through the generated server: the handler of that
 * very name answers, and a tool's manifest scopes are an own entry of `toolScopes`.
 */
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { readServer } from "../../../generator/consumer/read-server.ts";
import { emitUserFiles } from "../../../generator/emit/user/emit-user.ts";
import { ManifestError } from "../../../generator/manifest/errors.ts";
import { parseManifest } from "../../../generator/manifest/load-manifest.ts";
import { MAX_SCHEMA_DEPTH } from "../../../generator/manifest/schema-survey.ts";
import { builtinRevisions, createMemoryTransportPair, McpClient, McpServer } from "../../../runtime/index.ts";
import type { RunOptions } from "./frames.ts";
import { buildPackage } from "../../package/built-package.ts";
import { RUNTIME_AS_INSTALLED } from "../../package/runtime-declarations.ts";

const REPO = path.resolve(import.meta.dirname, "../../..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
/** Cases compiled by one tsc run. */
const BATCH = 250;

const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "Schema", "Shape", "Input", "a"];
const KEYS = [...NAMES, "", "a-b", "x/y~z", "%25", "0", "é", "\u2028", "line\nbreak", "*/", "${x}", "`"];
const BAD_PATTERNS = ["^[\\w-.]+$", "\\p{Nope}", "(?<n>a)\\k<m>"];
const GOOD_PATTERNS = ["^[a-z]+$", "^\\p{L}+$", "a|b"];

type Json = Record<string, unknown>;

/** A schema tree; `refs` are `$defs` names it may point at. */
function schemaArb(defNames: readonly string[]): fc.Arbitrary<Json> {
  const leaf = fc.oneof(
    fc.constant<Json>({ type: "string" }),
    fc.constant<Json>({ type: "integer" }),
    fc.constantFrom(...GOOD_PATTERNS, ...BAD_PATTERNS).map((pattern): Json => ({ type: "string", pattern })),
    ...(defNames.length > 0 ? [fc.constantFrom(...defNames).map((d): Json => ({ $ref: `#/$defs/${encode(d)}` }))] : []),
  );
  return fc.letrec<{ node: Json }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc
        .dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 3 })
        .map((properties): Json => ({ type: "object", properties })),
      fc.array(tie("node"), { minLength: 1, maxLength: 2 }).map((anyOf): Json => ({ anyOf })),
    ),
  })).node;
}

const encode = (segment: string) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));

/** `levels` objects nested inline (some cases go past the depth limit). */
const nested = (levels: number): Json => {
  let inner: Json = { type: "string" };
  for (let i = 0; i < levels; i++) inner = { type: "object", properties: { a: inner } };
  return inner;
};

const toolArb = fc
  .record({
    name: fc.oneof(fc.constantFrom(...NAMES), fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/)),
    defNames: fc.uniqueArray(fc.constantFrom(...KEYS.filter((k) => k !== "")), { maxLength: 3 }),
    depth: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: MAX_SCHEMA_DEPTH + 8 })),
  })
  .chain(({ name, defNames, depth }) =>
    fc
      .record({
        properties: fc.dictionary(fc.constantFrom(...KEYS), schemaArb(defNames), { maxKeys: 4 }),
        defs: fc.tuple(...defNames.map(() => schemaArb(defNames))),
      })
      .map(({ properties, defs }) => {
        const $defs = Object.fromEntries(defNames.map((d, i) => [d, defs[i]!]));
        const inputSchema: Json = { type: "object", properties: { ...properties, deep: nested(depth) } };
        if (defNames.length > 0) inputSchema["$defs"] = $defs;
        return { name, inputSchema, depth, _meta: { scopes: name.length % 2 === 0 ? ["admin"] : [] } };
      }),
  );

const caseArb = fc.uniqueArray(toolArb, { minLength: 1, maxLength: 4, selector: (t) => t.name });

/**
 * What the generator must refuse (a `u`-invalid pattern, nesting past the limit) and may refuse (a `$defs` entry that
 * is only itself: refused when something refers to it, ignored like any unused entry otherwise).
 */
function refusable(tools: readonly Tool[]): { must: boolean; may: boolean } {
  const text = JSON.stringify(tools);
  const must =
    BAD_PATTERNS.some((p) => text.includes(JSON.stringify(p))) || tools.some((t) => t.depth + 1 > MAX_SCHEMA_DEPTH);
  return { must, may: must || tools.some((t) => selfOnlyCycle((t.inputSchema["$defs"] ?? {}) as Json)) };
}

/** A `$defs` entry reaching itself through `$ref`s and `anyOf` alone (no object in between): no type can be it. */
function selfOnlyCycle(defs: Json): boolean {
  const reach = (schema: unknown, out: Set<string>): Set<string> => {
    const node = (schema ?? {}) as Json;
    if (typeof node["$ref"] === "string")
      out.add(decodeURIComponent(node["$ref"].slice("#/$defs/".length)).replace(/~1/g, "/").replace(/~0/g, "~"));
    if (Array.isArray(node["anyOf"])) for (const s of node["anyOf"]) reach(s, out);
    return out;
  };
  const edges = new Map(Object.entries(defs).map(([name, schema]) => [name, reach(schema, new Set())]));
  const cyclic = (name: string, trail: Set<string>): boolean =>
    trail.has(name) || [...(edges.get(name) ?? [])].some((next) => cyclic(next, new Set([...trail, name])));
  return [...edges.keys()].some((name) => cyclic(name, new Set()));
}

type Tool = { name: string; inputSchema: Json; depth: number; _meta: { scopes: string[] } };

/** import's reading of a server listing `tools`, as manifest text (JSON), scopes added as a manifest would hold them. */
async function imported(tools: readonly Tool[]): Promise<string> {
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "fuzz", version: "1.0.0" } });
  for (const tool of tools)
    server.tool({ name: tool.name, inputSchema: tool.inputSchema as never }, () => ({ content: [] }));
  const [serverSide, clientSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "fuzz-import", version: "1.0.0" } });
  await client.connect(clientSide);
  try {
    // import.ts types the client by the built package; the source build is the same class.
    const manifest = await readServer(client as never, "@mcp-gen/runtime");
    const listed = manifest["tools"] as Json[];
    listed.forEach((t, i) => {
      if (tools[i]!._meta.scopes.length > 0) t["scopes"] = tools[i]!._meta.scopes;
    });
    return JSON.stringify(manifest);
  } finally {
    await client.close();
    await server.close();
  }
}

/** Loads a generated folder and calls every tool through `createServer`; throws on a wrong answer. */
async function callAll(dir: string, tools: readonly Tool[]): Promise<void> {
  const generated = (await import(pathToFileURL(path.join(dir, "index.ts")).href)) as {
    toolScopes: Record<string, readonly string[]>;
    createServer(handlers: object): McpServer;
  };
  const handlers: Record<string, () => unknown> = {};
  for (const t of tools)
    Object.defineProperty(handlers, t.name, { value: () => ({ content: [{ type: "text", text: t.name }] }) });
  const server = generated.createServer({ tools: handlers });
  const [serverSide, clientSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "fuzz", version: "1.0.0" } });
  await client.connect(clientSide);
  try {
    for (const t of tools) {
      const own = Object.getOwnPropertyDescriptor(generated.toolScopes, t.name)?.value as unknown;
      if (JSON.stringify(own ?? []) !== JSON.stringify(t._meta.scopes))
        throw new Error(`toolScopes[${JSON.stringify(t.name)}] is ${JSON.stringify(own)}`);
      const result = (await client.callTool(t.name, {}).catch((e: unknown) => e)) as Error | { content: unknown };
      // {} may be refused by the tool's schema (invalid params); otherwise the handler of that name answered.
      if (result instanceof Error) {
        if (!/Invalid arguments|-32602/.test(result.message)) throw result;
      } else if (JSON.stringify(result.content) !== JSON.stringify([{ type: "text", text: t.name }])) {
        throw new Error(`tool ${JSON.stringify(t.name)} answered ${JSON.stringify(result.content)}`);
      }
    }
  } finally {
    await client.close();
    await server.close();
  }
}

/** The property: `numRuns` cases, in batches of `BATCH` per tsc run. */
export async function generatorInputs(options: RunOptions): Promise<void> {
  const cases = fc.sample(caseArb, { numRuns: options.numRuns, seed: options.seed });
  const scratch = path.join(REPO, ".tmp", `fuzz-generator-${process.pid}`);
  // tsc reads the runtime as installed (runtime/dist's .d.ts): built first where it is stale (`npm run fuzz` runs
  // without the suite's global setup).
  buildPackage("runtime");
  try {
    for (let start = 0; start < cases.length; start += BATCH) {
      await rm(scratch, { recursive: true, force: true });
      const emitted: { dir: string; tools: Tool[]; index: number }[] = [];
      for (const [offset, tools] of cases.slice(start, start + BATCH).entries()) {
        const index = start + offset;
        const text = await imported(tools as Tool[]);
        const mustRefuse = refusable(tools as Tool[]);
        let model;
        try {
          model = parseManifest(text, {
            file: `case-${index}.json`,
            displayPath: () => "mcp.json",
            knownRevisions: [],
          }).model;
        } catch (error) {
          if (error instanceof ManifestError && mustRefuse.may) continue;
          throw new Error(`case ${index}: ${error instanceof Error ? error.message : String(error)}\n${text}`, {
            cause: error,
          });
        }
        if (mustRefuse.must) throw new Error(`case ${index} was generated but holds something to refuse\n${text}`);
        const dir = path.join(scratch, `case-${index}`);
        await mkdir(dir, { recursive: true });
        for (const file of emitUserFiles(model)) await writeFile(path.join(dir, file.path), file.content);
        emitted.push({ dir, tools: tools as Tool[], index });
      }
      if (emitted.length === 0) continue;
      const tsconfig = path.join(scratch, "tsconfig.json");
      const config = {
        extends: "../../tsconfig.json",
        compilerOptions: RUNTIME_AS_INSTALLED,
        include: ["case-*/*.ts"],
      };
      await writeFile(tsconfig, JSON.stringify(config));
      try {
        execFileSync(process.execPath, [TSC, "--noEmit", "--pretty", "false", "-p", tsconfig], { encoding: "utf8" });
      } catch (error) {
        throw new Error(
          `tsc failed on batch ${start}: ${String((error as { stdout?: string }).stdout ?? error).slice(0, 2000)}`,
          { cause: error },
        );
      }
      for (const c of emitted)
        await callAll(c.dir, c.tools).catch((e: unknown) => {
          throw new Error(`case ${c.index}: ${e instanceof Error ? e.message : String(e)}`);
        });
      options.log?.(
        `generator: ${Math.min(start + BATCH, cases.length)}/${cases.length} cases (${emitted.length} generated in this batch)`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
