/**
 * `mcp-gen protocol` on extension schemas, as a user runs it: `--extension-id` adds the descriptor (and is checked),
 * and a user's wrapper schema that imports the extension's messages and declares the direction unions narrows the
 * directions the extension schema leaves open (the real Tasks schema, imported in place by a relative path).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/repo-root.ts";
import { requireSpecRoot } from "../../../scripts/spec-inputs.ts";
import { CLI } from "../cli-run.ts";

const run = promisify(execFile);
const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-ext-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tasksSchema = path.join(requireSpecRoot(), "extensions/tasks/schema.ts");

function protocol(...args: string[]) {
  return run(process.execPath, [CLI, "protocol", ...args], { cwd: REPO_ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("mcp-gen protocol for an extension schema", () => {
  it("without --extension-id writes no descriptor; a malformed one is refused in one line", async () => {
    const out = path.join(tmp, "plain");
    const plain = await protocol("--schema", tasksSchema, "--revision", "tasks", "--out", out);
    expect(plain.code).toBe(0);
    expect(existsSync(path.join(out, "extension.ts"))).toBe(false);
    expect(readFileSync(path.join(out, "index.ts"), "utf8")).not.toContain("./extension");
    expect(existsSync(path.join(out, "revision.ts"))).toBe(false);

    const bad = path.join(tmp, "bad");
    const refused = await protocol(
      "--schema",
      tasksSchema,
      "--revision",
      "tasks",
      "--out",
      bad,
      "--extension-id",
      "tasks",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toEqual([
      'mcp-gen: --extension-id "tasks" is not {vendor-prefix}/{name}, e.g. com.example/notes',
    ]);
    expect(existsSync(bad)).toBe(false);
  });

  it("a wrapper schema's direction unions narrow the extension's directions", async () => {
    const wrapper = path.join(tmp, "tasks-directions.ts");
    const from = path.relative(tmp, tasksSchema).split(path.sep).join("/").replace(/\.ts$/, ".js");
    writeFileSync(
      wrapper,
      `import type { CancelTaskRequest, CancelTaskResult, GetTaskRequest, GetTaskResult, TaskStatusNotification,
  UpdateTaskRequest, UpdateTaskResult } from "${from.startsWith(".") ? from : `./${from}`}";

export type ClientRequest = GetTaskRequest | UpdateTaskRequest | CancelTaskRequest;
export type ServerNotification = TaskStatusNotification;
`,
    );
    const out = path.join(tmp, "narrowed");
    const { code, stderr } = await protocol(
      "--schema",
      wrapper,
      "--revision",
      "tasks",
      "--out",
      out,
      "--extension-id",
      "io.modelcontextprotocol/tasks",
    );
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const ir = JSON.parse(readFileSync(path.join(out, "ir.json"), "utf8")) as {
      methods: { method: string; direction: string }[];
    };
    expect(ir.methods.map((m) => [m.method, m.direction])).toEqual([
      ["notifications/tasks", "serverToClient"],
      ["tasks/cancel", "clientToServer"],
      ["tasks/get", "clientToServer"],
      ["tasks/update", "clientToServer"],
    ]);
    expect(readFileSync(path.join(out, "extension.ts"), "utf8")).toContain('id: "io.modelcontextprotocol/tasks"');
  });
});
