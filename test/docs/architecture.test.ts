/**
 * ARCHITECTURE.md's list of the runtime's entry points is the package's (issue 35.10: it had fallen behind by four
 * entries). The oracle is runtime/package.json's `exports`, read as npm reads it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../generator/cli-run.ts";

const architecture = readFileSync(path.join(REPO, "ARCHITECTURE.md"), "utf8");
const exportsOf = JSON.parse(readFileSync(path.join(REPO, "runtime/package.json"), "utf8")).exports as Record<
  string,
  unknown
>;

describe("ARCHITECTURE.md", () => {
  it("lists every entry point of @mcp-gen/runtime and no other", () => {
    const paragraph = architecture.slice(architecture.indexOf("- **Entry points**"));
    const listed = paragraph.slice(
      0,
      paragraph.indexOf("\n- ") > 0 ? paragraph.indexOf("\n- ") : paragraph.indexOf("\n\n"),
    );
    const named = [...listed.matchAll(/`(\.(?:\/[\w*/-]+)?)`/g)].map((m) => m[1]);
    const entries = Object.keys(exportsOf).filter((entry) => entry !== "./package.json");
    expect(new Set(named)).toEqual(new Set(entries));
  });

  it("names only files and folders of runtime/ that exist", () => {
    const mentioned = [
      ...architecture.matchAll(
        /`((?:server|client|protocol|http|tasks|skills|apps|transport|jsonrpc)\/(?:[\w./-]*\.ts|[\w/-]*\/))`/g,
      ),
    ].map((m) => m[1]!);
    expect(mentioned.length).toBeGreaterThan(10);
    const missing = mentioned.filter((name) => {
      try {
        readFileSync(path.join(REPO, "runtime", name.replace(/\/$/, "")));
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code !== "EISDIR";
      }
    });
    expect(missing).toEqual([]);
  });
});
