/**
 * `redis` is an optional peer of @mcp-gen/runtime: only the `./redis` entry loads it. A child process records every
 * module URL that resolves into node_modules/redis or node_modules/@redis (a module.register resolve hook), after
 * importing entries; importing `./redis` itself is the control that the recording works.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = mkdtempSync(path.join(tmpdir(), "mcp-redis-optional-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function redisModulesLoadedBy(entries: readonly string[]): string[] {
  const out = path.join(dir, `loaded-${entries.length}-${Date.now()}.txt`);
  writeFileSync(out, "");
  const hook = path.join(dir, "hook.mjs");
  writeFileSync(
    hook,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/node_modules\\/(redis|@redis)\\//.test(resolved.url)) appendFileSync(${JSON.stringify(out)}, resolved.url + "\\n");
  return resolved;
}`,
  );
  const register = `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hook).href)});`;
  const script = entries.map((e) => `await import(${JSON.stringify(e)});`).join("\n");
  execFileSync(
    process.execPath,
    [
      "--conditions=@mcp-gen/source",
      "--import",
      pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href,
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--input-type=module",
      "-e",
      script,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  return readFileSync(out, "utf8").split("\n").filter(Boolean);
}

describe("the redis client loads only with @mcp-gen/runtime/redis", () => {
  it("importing the main entries loads nothing of redis", () => {
    const entries = ["", "/http", "/node", "/advanced", "/auth", "/http/web"].map((e) => `@mcp-gen/runtime${e}`);
    expect(redisModulesLoadedBy(entries)).toEqual([]);
  }, 60_000);

  it("importing @mcp-gen/runtime/redis loads it (the recording works)", () => {
    expect(redisModulesLoadedBy(["@mcp-gen/runtime/redis"]).length).toBeGreaterThan(0);
  }, 60_000);
});
