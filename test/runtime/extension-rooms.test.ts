/**
 * Generic code names no extension (issue 36): the runtime's server, client, protocol and HTTP modules know an
 * extension only through the extension interfaces (`ServerExtension.serve`, `ClientExtension.attach`), so an
 * extension's identifier, methods and symbols appear in its own folder (`runtime/tasks/`, its bindings in
 * `runtime/generated/extensions/tasks/`) and nowhere else in the runtime's sources.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const RUNTIME = path.resolve(import.meta.dirname, "../../runtime");

/** What only the Tasks extension's own folder may spell. */
const TASKS_NAMES: readonly RegExp[] = [
  /io\.modelcontextprotocol\/tasks/,
  /\bTASKS_EXTENSION_ID\b/,
  /\bTaskEngine\b/,
  /\bInMemoryTaskStore\b/,
  /\bTaskStore\b/,
  /\bTaskState\b/,
  /\brunAsTask\b/,
  /\bTaskHandle\b/,
  /\bcallToolAsTask\b/,
  /\bCreateTaskResult\b/,
  /\btaskIds\b/,
  /"(tasks\/(get|update|cancel)|notifications\/tasks)"/,
  /from "[^"]*\/tasks\//,
];

/**
 * Known places of the HTTP layer that still name Tasks, each with why (file → the patterns it may match): the
 * deployment's shared state keeps the extension's task store beside the sessions, and the routing headers of
 * Streamable HTTP name the extension's methods on both sides of the transport.
 */
const NOT_YET: Readonly<Record<string, readonly RegExp[]>> = {
  "http/mcp-headers.ts": [/"(tasks\/(get|update|cancel)|notifications\/tasks)"/],
  "http/server/shared-state.ts": [/\bInMemoryTaskStore\b/, /\bTaskStore\b/, /from "[^"]*\/tasks\//],
  "http/server/redis-store.ts": [/\bTaskStore\b/, /from "[^"]*\/tasks\//],
  "http/server/redis-tasks.ts": [/\bTaskStore\b/, /\bTaskState\b/, /from "[^"]*\/tasks\//],
};

/** The runtime's hand-written sources outside `own` folders (relative to runtime/, `/`-separated). */
function genericSources(own: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(RUNTIME, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!["dist", "node_modules", "api", ".staging", "generated"].includes(entry.name) && !own.includes(rel))
          walk(rel);
      } else if (entry.name.endsWith(".ts")) out.push(rel);
    }
  };
  walk("");
  return out;
}

describe("extension identifiers stay in their own folder", () => {
  it("the Tasks extension is named only in runtime/tasks/ (and its generated bindings)", () => {
    const files = genericSources(["tasks"]);
    expect(files).toContain("server/definition.ts"); // the walk reaches the generic rooms
    expect(files).toContain("client/client.ts");
    expect(files).not.toContain("tasks/index.ts");
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(RUNTIME, file), "utf8").split("\n");
      const allowed = NOT_YET[file] ?? [];
      lines.forEach((line, i) => {
        for (const pattern of TASKS_NAMES)
          if (pattern.test(line) && !allowed.some((a) => a.source === pattern.source))
            found.push(`runtime/${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("finds a name where it is spelled (the scan is not vacuous)", () => {
    const text = readFileSync(path.join(RUNTIME, "tasks/server/feature.ts"), "utf8");
    expect(TASKS_NAMES.filter((p) => p.test(text)).length).toBeGreaterThan(3);
  });

  it("the Skills extension is named only in runtime/skills/ (and its generated bindings)", () => {
    const SKILLS_NAMES = [
      /io\.modelcontextprotocol\/skills/,
      /"skills\/(list|get)"/,
      /resources\/directory\/read/,
      /\bSkillCatalog\b/,
      /\bskill:\/\//,
      /from "[^"]*\/skills\//,
    ];
    const own = readFileSync(path.join(RUNTIME, "skills/server/feature.ts"), "utf8");
    expect(SKILLS_NAMES.filter((p) => p.test(own)).length).toBeGreaterThan(3);
    const found: string[] = [];
    for (const file of genericSources(["skills"]))
      readFileSync(path.join(RUNTIME, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (SKILLS_NAMES.some((p) => p.test(line))) found.push(`runtime/${file}:${i + 1}: ${line.trim()}`);
        });
    expect(found).toEqual([]);
  });
});

/** What only the MCP Apps extension's own folder may spell. */
const APPS_NAMES: readonly RegExp[] = [
  /io\.modelcontextprotocol\/ui/,
  /\bAPPS_EXTENSION_ID\b/,
  /text\/html;profile=mcp-app/,
  /ui\/resourceUri/,
  /\bserveViews\b/,
  /\bdeclaresApps\b/,
  /from "[^"]*\/apps\//,
];

describe("the MCP Apps extension stays in its own folder", () => {
  it("is named only in runtime/apps/ (and its generated bindings)", () => {
    const found: string[] = [];
    for (const file of genericSources(["apps"])) {
      readFileSync(path.join(RUNTIME, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (APPS_NAMES.some((p) => p.test(line))) found.push(`runtime/${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("finds a name where it is spelled (the scan is not vacuous)", () => {
    const text =
      readFileSync(path.join(RUNTIME, "apps/server/feature.ts"), "utf8") +
      readFileSync(path.join(RUNTIME, "apps/server/views.ts"), "utf8");
    expect(APPS_NAMES.filter((p) => p.test(text)).length).toBeGreaterThan(3);
  });
});
