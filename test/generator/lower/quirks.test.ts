/**
 * The quirks table (generator/lower/quirks.ts) is small and every entry earns its place: each one matches a
 * declaration in some released schema and is needed there (naming alone would not give the answer).
 */
import { describe, expect, it } from "vitest";
import {
  CAPABILITY_DECLARATIONS,
  CAPABILITY_QUIRKS,
  DIRECTION_UNIONS,
  RESULT_NAMING,
  RESULT_QUIRKS,
} from "../../../generator/lower/quirks.ts";
import { RELEASED, specModel } from "../../protocol/spec.ts";

describe("quirks table", () => {
  it("RESULT_QUIRKS: every entry pairs a request of some revision, and naming could not have paired it", () => {
    for (const [request, result] of Object.entries(RESULT_QUIRKS)) {
      const uses = RELEASED.map(specModel).filter((m) => m.methods.some((x) => x.typeName === request));
      expect(uses.length, request).toBeGreaterThan(0);
      for (const model of uses) {
        const names = new Set(model.types.map((t) => t.name));
        const base = request.slice(0, -RESULT_NAMING.requestSuffix.length);
        expect(names.has(result), `${model.revision}: ${result}`).toBe(true);
        expect(names.has(base + RESULT_NAMING.resultSuffix), `${model.revision}: ${base}Result exists`).toBe(false);
        expect(names.has(base + RESULT_NAMING.envelopeSuffix), `${model.revision}: envelope exists`).toBe(false);
        const method = model.methods.find((x) => x.typeName === request)!;
        expect(method.resultSource).toBe("pairing-table");
      }
    }
  });

  it("CAPABILITY_QUIRKS: every entry gates its method in some revision, and the naming rule would not", () => {
    for (const [method, gate] of Object.entries(CAPABILITY_QUIRKS)) {
      const gated = RELEASED.map(specModel).filter((m) => m.methods.find((x) => x.method === method)?.capability);
      expect(gated.length, method).toBeGreaterThan(0);
      for (const model of gated) expect(model.methods.find((x) => x.method === method)?.capability).toEqual(gate);
      const segments = method.split("/").filter((s) => s !== "notifications");
      expect(gate.path.join("/"), `${method} is derivable without a quirk`).not.toBe(
        segments.slice(0, gate.path.length).join("/"),
      );
    }
  });

  it("direction unions and capability declarations exist under these names", () => {
    for (const name of [...Object.keys(DIRECTION_UNIONS), ...Object.values(CAPABILITY_DECLARATIONS)]) {
      expect(
        RELEASED.some((rev) => specModel(rev).types.some((t) => t.name === name)),
        name,
      ).toBe(true);
    }
  });

  it("no protocol generator code (comments aside) mentions a revision string", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const root = path.join(import.meta.dirname, "../../../generator");
    const files: string[] = [];
    for (const dir of ["lower", "ir", "pipeline", "emit"]) {
      for (const name of await readdir(path.join(root, dir)))
        if (name.endsWith(".ts")) files.push(path.join(root, dir, name));
    }
    files.push(path.join(root, "../scripts/generate-protocol.ts"), path.join(root, "commands/protocol.ts"));
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const code = (await readFile(file, "utf8")).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
      expect(code, file).not.toMatch(/20\d\d-\d\d-\d\d/);
    }
  });
});
