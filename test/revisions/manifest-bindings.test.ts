/**
 * Issue 12, manifest side: `server.revisions` names a revision the user generated (`{ bindings: <folder> }`, the
 * output of `mcp-gen protocol`) beside a built-in one. A copy of the released 2025-11-25 schema.ts with a wire
 * version of our own is generated into a scratch project; a manifest naming both generates a server whose
 * definitions import exactly those two descriptors, the whole project compiles (nodenext, strict,
 * exactOptionalPropertyTypes, noUnusedLocals), and the generated server negotiates the draft with a runtime client
 * that speaks only the draft, and the built-in with one that speaks only that. Folders that are not bindings are
 * refused at generation time with file:line:col, path and reason.
 *
 * The scratch project lives inside the repository (removed afterwards) so that `@mcp-gen/runtime`, which the bindings,
 * the generated code and main.ts import as a user's project does, resolves through the workspace link to the runtime's
 * package build, runtime/dist (its .d.ts for tsc, its JavaScript for node; the suite's global setup builds it from
 * the current sources): no pack, no install.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { runGenerate } from "../../generator/pipeline/run-generate.ts";
import { CLI } from "../generator/cli-run.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const SPEC = requireSpecRoot();
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const DRAFT_VERSION = "DRAFT-manifest-1";

let scratch: string;

const manifest = (revisions: string) => `server:
  name: bindings-server
  version: 1.0.0
  revisions: ${revisions}
tools:
  - name: shout
    inputSchema: { type: object, properties: { text: { type: string } }, required: [text], additionalProperties: false }
    outputSchema: { type: object, properties: { text: { type: string } }, required: [text], additionalProperties: false }
generate:
  out: generated
  importExtension: .ts
`;

const MAIN = () => `import { createMemoryTransportPair, McpClient, type RevisionDescriptor } from "@mcp-gen/runtime";
import { revision as builtin } from "@mcp-gen/runtime/protocol/2025-11-25";
import { createClient, createServer } from "./generated/index.ts";
import { revision as draft } from "./protocol/draft/index.ts";

async function talk(revision: RevisionDescriptor) {
  const server = createServer({ tools: { shout: ({ text }) => ({ structuredContent: { text: text.toUpperCase() } }) } });
  const [serverSide, clientSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const raw = new McpClient({ info: { name: "bindings-client", version: "1.0.0" }, revisions: [revision] });
  await raw.connect(clientSide);
  const result = await createClient(raw).tools.shout({ text: "hello" });
  const shouted: string = result.structuredContent.text;
  const summary = { revision: raw.revision, shouted };
  await raw.close();
  await server.close();
  return summary;
}

console.log(JSON.stringify({ draft: await talk(draft), builtin: await talk(builtin) }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  },
  files: ["main.ts"],
};

/** A released schema.ts whose wire version is one no built-in revision has. */
function draftSchema(): string {
  const text = readFileSync(path.join(SPEC, "2025-11-25", "schema.ts"), "utf8");
  const latest = /export const LATEST_PROTOCOL_VERSION = "[^"]*";/;
  if (!latest.test(text)) throw new Error("2025-11-25: no LATEST_PROTOCOL_VERSION");
  return text.replace(latest, `export const LATEST_PROTOCOL_VERSION = ${JSON.stringify(DRAFT_VERSION)};`);
}

async function generate(manifestText: string): Promise<{ code: number; lines: string[] }> {
  const file = path.join(scratch, "mcp.yaml");
  writeFileSync(file, manifestText);
  const lines: string[] = [];
  const code = await runGenerate(
    { manifest: file, check: false },
    { out: (l) => lines.push(l), err: (l) => lines.push(l) },
  );
  return { code, lines };
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(import.meta.dirname, ".scratch-manifest-bindings-"));
  writeFileSync(path.join(scratch, "draft.schema.ts"), draftSchema());
  execFileSync(
    process.execPath,
    [
      CLI,
      "protocol",
      "--schema",
      path.join(scratch, "draft.schema.ts"),
      "--revision",
      "draft",
      "--out",
      path.join(scratch, "protocol/draft"),
    ],
    { cwd: REPO, stdio: "pipe", timeout: 180_000 },
  );
}, 200_000);

afterAll(() => {
  if (scratch && !process.env["KEEP"]) rmSync(scratch, { recursive: true, force: true });
});

describe("a manifest naming a user-generated revision folder", () => {
  it("generates descriptor imports of exactly its revisions, compiles strictly, and negotiates the draft", async () => {
    const { code, lines } = await generate(manifest('[2025-11-25, { bindings: "./protocol/draft" }]'));
    expect(lines).toEqual([expect.stringMatching(/^mcp-gen: wrote 6 files to /)]);
    expect(code).toBe(0);
    const definitions = readFileSync(path.join(scratch, "generated/definitions.ts"), "utf8");
    // Independent oracle: the two import lines spelled out by hand, and no other revision's bindings.
    expect(definitions).toContain('import * as revision_2025_11_25 from "@mcp-gen/runtime/protocol/2025-11-25";');
    expect(definitions).toContain('import * as revision_draft from "../protocol/draft/revision.ts";');
    expect(definitions).toContain("revisions: [revision_2025_11_25.revision, revision_draft.revision]");
    expect(definitions.match(/protocol\/[^/"]+"/g)).toEqual(['protocol/2025-11-25"']);

    writeFileSync(path.join(scratch, "main.ts"), MAIN());
    writeFileSync(path.join(scratch, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    try {
      execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: scratch, stdio: "pipe", timeout: 300_000 });
    } catch (error) {
      throw new Error(`tsc failed:\n${String((error as { stdout?: Buffer }).stdout ?? error)}`, { cause: error });
    }
    const printed = execFileSync(process.execPath, ["--import", "tsx", "main.ts"], {
      cwd: scratch,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(printed)).toEqual({
      draft: { revision: DRAFT_VERSION, shouted: "HELLO" },
      builtin: { revision: "2025-11-25", shouted: "HELLO" },
    });
  }, 400_000);

  it("refuses folders that hold no bindings, in one line each with position, path and reason", async () => {
    mkdirSync(path.join(scratch, "empty"), { recursive: true });
    mkdirSync(path.join(scratch, "no-ir"), { recursive: true });
    writeFileSync(path.join(scratch, "no-ir/revision.ts"), "export const revision = {};\n");
    mkdirSync(path.join(scratch, "base-only"), { recursive: true });
    writeFileSync(path.join(scratch, "base-only/revision.ts"), "export const revision = {};\n");
    writeFileSync(path.join(scratch, "base-only/ir.json"), JSON.stringify({ types: [] }));
    const revisions =
      "[{ bindings: ./missing }, { bindings: ./empty }, { bindings: ./no-ir }, { bindings: ./base-only }, " +
      "{ bindings: protocol/draft/ }, { bindings: ./protocol/draft }, 2099-01-01]";
    const { code, lines } = await generate(manifest(revisions));
    expect(code).toBe(1);
    const file = path.join(scratch, "mcp.yaml");
    const column = (needle: string) => manifest(revisions).split("\n")[3]!.indexOf(needle) + 1;
    expect(lines).toEqual([
      `mcp-gen: ${file}:4:${column("./missing")}: server.revisions[0].bindings: no folder ./missing (generate it with \`mcp-gen protocol --schema <schema.ts> --out ./missing\`)`,
      `mcp-gen: ${file}:4:${column("./empty")}: server.revisions[1].bindings: ./empty holds no revision.ts, so it is not protocol bindings (generate it with \`mcp-gen protocol --schema <schema.ts> --out ./empty\`)`,
      `mcp-gen: ${file}:4:${column("./no-ir")}: server.revisions[2].bindings: ./no-ir holds no ir.json, so it is not protocol bindings (generate it with \`mcp-gen protocol --schema <schema.ts> --out ./no-ir\`)`,
      `mcp-gen: ${file}:4:${column("./base-only")}: server.revisions[3].bindings: ./base-only/ir.json has no protocol block: bindings of a base revision only (generate it with \`mcp-gen protocol --schema <schema.ts> --out ./base-only\`)`,
      `mcp-gen: ${file}:4:${column("{ bindings: ./protocol/draft }")}: server.revisions[5]: duplicate protocol revision "{ bindings: protocol/draft }" (first at server.revisions[4])`,
      expect.stringMatching(
        new RegExp(
          `^mcp-gen: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:${column("2099")}: server\\.revisions\\[6\\]: unknown protocol revision "2099-01-01" \\(known: 2024-11-05, `,
        ),
      ),
    ]);
  }, 60_000);
});
