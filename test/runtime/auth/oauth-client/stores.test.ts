/**
 * The token stores (runtime/auth/oauth-client/stores.ts): `fileStore` reads a missing file, a JSON non-object or a
 * JSON string as empty and inherited names as absent, and does not hide other read errors. Real temp files.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileStore, OAuthClientError } from "../../../../runtime/auth/index.ts";

describe("fileStore", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads a missing file or a JSON non-object as empty, and inherited names as absent", async () => {
    dir = await mkdtemp(join(tmpdir(), "oauth-stores-"));
    expect(await fileStore(join(dir, "missing.json")).get("k")).toBeUndefined();
    const path = join(dir, "array.json");
    await fileStore(path).set("k", { v: 1 });
    for (const text of ["[1]", "null", "3"]) {
      await writeFile(path, text);
      const store = fileStore(path);
      expect(await store.get("0")).toBeUndefined();
      expect(await store.get("toString")).toBeUndefined();
    }
  });

  it("does not hide a read error other than a missing file", async () => {
    dir = await mkdtemp(join(tmpdir(), "oauth-stores-"));
    await mkdir(join(dir, "a-directory"));
    await expect(fileStore(join(dir, "a-directory")).get("k")).rejects.toMatchObject({ code: "EISDIR" });
  });
});

describe("fileStore with odd contents", () => {
  it("reads a file holding a JSON string as empty", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oauth-stores-"));
    try {
      const path = join(dir, "string.json");
      await writeFile(path, '"abc"');
      expect(await fileStore(path).get("0")).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names its errors OAuthClientError", () => {
    expect(new OAuthClientError("m", "insecure_url").name).toBe("OAuthClientError");
  });
});
