/**
 * The README's Tasks section: each code block is an excerpt of the example file it names (examples/tasks, which
 * test/manifest/tasks-e2e.test.ts runs over stdio and Streamable HTTP, and compile.test.ts type-checks), and the
 * example's client, run as a user runs it, prints the typed result of a task that asked for confirmation.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => readFileSync(path.join(REPO, file), "utf8");

function tasksBlocks(): string[] {
  const readme = read("README.md");
  const start = readme.indexOf("\n## Tasks\n");
  const end = readme.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(0);
  return [...readme.slice(start, end).matchAll(/```(?:yaml|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
}

describe("README: Tasks", () => {
  it("shows the manifest flag, the handler and the client call as they are in examples/tasks", () => {
    const [manifest, handler, call] = tasksBlocks();
    expect(manifest).toContain("task: optional");
    expect(read("examples/tasks/mcp.yaml")).toContain(manifest);
    expect(read("examples/tasks/handlers.ts")).toContain(handler);
    expect(read("examples/tasks/client.ts")).toContain(call);
  });

  it("the example client runs a task to its typed result", () => {
    const output = execFileSync(
      process.execPath,
      ["--conditions=@mcp-gen/source", "--import", "tsx", path.join(REPO, "examples/tasks/client.ts")],
      { cwd: REPO, encoding: "utf8", timeout: 120_000 },
    );
    expect(output).toMatch(/^input_required/m);
    expect(output).toMatch(/^task \S+: 240 rows, confirmed by Ada$/m);
  }, 150_000);
});
