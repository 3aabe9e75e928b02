/**
 * The outputs record (`.mcp-gen.json`) across a runtime upgrade: the pipeline runs in-process, and an upgraded
 * runtime is simulated by changing the built-in revisions' IRs as `diff/load.ts` reads them (mocked; the module
 * registry is reset between "runtime versions", so no cached IR survives). The record names built-in revisions
 * only, so an upgrade that changes no generated file leaves it, and `generate --check`, unchanged; an upgrade that
 * does change what a manifest generates still fails the check, and `mcp-gen diff` reads the built-in revisions'
 * facts from the runtime at hand.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { IrMethod, IrModel } from "../../generator/ir/model.ts";

const runtime = vi.hoisted(() => ({ upgrade: (model: IrModel): IrModel => model }));

vi.mock("../../generator/diff/load.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../generator/diff/load.ts")>();
  return { ...actual, loadModel: (arg: string, cwd?: string) => runtime.upgrade(actual.loadModel(arg, cwd)) };
});

const REPO = path.resolve(import.meta.dirname, "../..");
const BUILTIN = "2025-11-25";

/** The pipeline as a fresh CLI process would load it (no IR cached from an earlier "runtime"). */
async function pipeline() {
  vi.resetModules();
  const { generateFromManifest } = await import("../../generator/pipeline/manifest.ts");
  const { checkOutputFolder, writeOutputFolder } = await import("../../generator/pipeline/output-folder.ts");
  const { surfaceOfRecord } = await import("../../generator/pipeline/manifest-surface.ts");
  return { generateFromManifest, checkOutputFolder, writeOutputFolder, surfaceOfRecord };
}

/** An upgrade no manifest here meets: a client request changes shape, a request is added. */
function unrelatedChange(model: IrModel): IrModel {
  if (model.revision !== BUILTIN) return model;
  const ping = model.methods.find((m) => m.method === "ping")!;
  const added: IrMethod = { ...ping, method: "things/list" };
  const methods = model.methods.map((m) =>
    m.method === "elicitation/create" ? { ...m, paramsOptional: !m.paramsOptional } : m,
  );
  return { ...model, methods: [...methods, added] };
}

/** An upgrade that drops the `execution` field of a tool definition. */
function withoutToolExecution(model: IrModel): IrModel {
  if (model.revision !== BUILTIN) return model;
  const types = model.types.map((t) =>
    t.name === "Tool" && t.type.kind === "object"
      ? { ...t, type: { ...t.type, props: t.type.props.filter((p) => p.name !== "execution") } }
      : t,
  );
  return { ...model, types };
}

let dir: string;
const manifests = {
  /** The weather example: no revisions named, so it serves every built-in revision of its runtime. */
  every: "every/mcp.yaml",
  /** The weather example naming one built-in revision and using a field that revision's tools have. */
  listed: "listed/mcp.yaml",
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-record-upgrade-"));
  const weather = await readFile(path.join(REPO, "examples/weather/mcp.yaml"), "utf8");
  const write = async (manifest: string, text: string) => {
    await mkdir(path.dirname(path.join(dir, manifest)), { recursive: true });
    await writeFile(path.join(dir, manifest), text);
  };
  await write(manifests.every, weather);
  const listed = weather
    .replace("  version: 1.0.0\n", `  version: 1.0.0\n  revisions: [${BUILTIN}]\n`)
    .replace(
      "  - name: convert_temperature\n",
      "  - name: convert_temperature\n    execution: { taskSupport: optional }\n",
    );
  expect(listed).toContain("execution:");
  await write(manifests.listed, listed);
  runtime.upgrade = (model) => model;
  const { generateFromManifest, writeOutputFolder } = await pipeline();
  for (const manifest of Object.values(manifests)) {
    const output = await generateFromManifest({ manifestPath: path.join(dir, manifest) });
    await writeOutputFolder(output.outDir, output.files);
  }
});

afterAll(async () => {
  runtime.upgrade = (model) => model;
  await rm(dir, { recursive: true, force: true });
});

const recordOf = (manifest: string) =>
  readFile(path.join(dir, path.dirname(manifest), "generated/.mcp-gen.json"), "utf8");

describe("the record across a runtime upgrade", () => {
  it("names built-in revisions only: no method facts, none at all when the manifest names none", async () => {
    const every = JSON.parse(await recordOf(manifests.every)) as { surface: Record<string, unknown> };
    expect(every.surface["revisions"]).toBeUndefined();
    const listed = JSON.parse(await recordOf(manifests.listed)) as { surface: Record<string, unknown> };
    expect(listed.surface["revisions"]).toEqual([BUILTIN]);
  });

  it("an upgrade that changes no generated file changes neither the record nor the check", async () => {
    runtime.upgrade = unrelatedChange;
    const { generateFromManifest, checkOutputFolder } = await pipeline();
    for (const manifest of Object.values(manifests)) {
      const output = await generateFromManifest({ manifestPath: path.join(dir, manifest) });
      const record = output.files.find((f) => f.path === ".mcp-gen.json")!;
      expect(record.content).toBe(await recordOf(manifest));
      expect(await checkOutputFolder(output.outDir, output.files)).toEqual([]);
    }
  });

  it("diff reads the built-in revisions' facts from the runtime at hand", async () => {
    runtime.upgrade = unrelatedChange;
    const { surfaceOfRecord } = await pipeline();
    const recorded = (JSON.parse(await recordOf(manifests.listed)) as { surface: never }).surface;
    const [revision] = surfaceOfRecord(recorded).revisions;
    expect(revision?.name).toBe(BUILTIN);
    expect(Object.keys(revision?.methods ?? {})).toContain("things/list");
  });

  it("an upgrade that changes what a manifest generates fails the check", async () => {
    runtime.upgrade = withoutToolExecution;
    const { generateFromManifest, checkOutputFolder } = await pipeline();
    const every = await generateFromManifest({ manifestPath: path.join(dir, manifests.every) });
    expect(await checkOutputFolder(every.outDir, every.files)).toEqual([]);
    await expect(generateFromManifest({ manifestPath: path.join(dir, manifests.listed) })).rejects.toThrow(
      /tools\[2\]\.execution: unknown field "execution"/,
    );
  });
});
