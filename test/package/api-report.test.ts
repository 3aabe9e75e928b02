/**
 * The committed public-API report (runtime/api/*.api.md, one file per runtime/package.json `exports` entry) matches
 * the runtime's sources: a change to the public surface fails here until the report is regenerated
 * (`npx tsx scripts/api-report.ts`), so it shows up as a diff of the report in review.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderReports, reportName } from "../../scripts/api-report.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const API = path.join(ROOT, "runtime/api");
const UPDATE = "the public API changed: run `npx tsx scripts/api-report.ts` and review the diff of runtime/api/";

describe("runtime public API report", () => {
  it("has one report per exports entry, each up to date", () => {
    const exportsMap = (
      JSON.parse(readFileSync(path.join(ROOT, "runtime/package.json"), "utf8")) as {
        exports: Record<string, unknown>;
      }
    ).exports;
    const expected = Object.keys(exportsMap)
      .filter((key) => key !== "./package.json")
      .map(reportName)
      .sort();
    const reports = renderReports();
    expect([...reports.keys()].sort()).toEqual(expected);
    expect(
      readdirSync(API)
        .filter((f) => f.endsWith(".api.md"))
        .sort(),
      UPDATE,
    ).toEqual(expected);
    for (const [name, text] of reports)
      expect(readFileSync(path.join(API, name), "utf8"), `${name}: ${UPDATE}`).toBe(text);
  }, 120_000);

  it("names each export once across the hand-written entries", () => {
    const reports = renderReports();
    const owners = new Map<string, string[]>();
    for (const [name, text] of reports) {
      if (name.startsWith("protocol")) continue; // generated bindings: each revision exports the same names
      for (const match of text.matchAll(/^### `([^`]+)`/gm))
        owners.set(match[1]!, [...(owners.get(match[1]!) ?? []), name]);
    }
    const twice = [...owners].filter(([, files]) => files.length > 1).map(([n, files]) => `${n}: ${files.join(", ")}`);
    expect(twice).toEqual([]);
    // The internals are on /advanced only.
    for (const internal of ["JsonRpcEngine", "ERA_RULES", "rankProfiles"])
      expect(owners.get(internal)).toEqual(["advanced.api.md"]);
    // One server class and one client class; no process-wide revision lookups.
    for (const gone of [
      "McpServerCore",
      "McpClientCore",
      "ClientConnection",
      "eraOf",
      "BUILTIN_REVISIONS",
      "getProfile",
    ])
      expect(owners.has(gone), gone).toBe(false);
    // The server class is what an application writes against plus the HTTP host contract (/http/web's SessionHost);
    // what a session asks of the definition (implementations, dispatch indexes, the sealer) is not public.
    const index = reports.get("index.api.md")!;
    const server = /^class McpServer \{\n([\s\S]*?)^\}/m.exec(index)?.[1] ?? "";
    expect([...server.matchAll(/^ {2}(\w+)[:(]/gm)].map((m) => m[1])).toEqual([
      "constructor",
      "capabilities",
      "close",
      "connect",
      "deliverBroadcast",
      "endListenStreams",
      "maxSubscriptionsPerSession",
      "notifyResourceUpdated",
      "onBroadcast",
      "prompt",
      "removeTool",
      "resource",
      "resourceTemplate",
      "revisions",
      "sessions",
      "setNotificationHandler",
      "setRequestHandler",
      "shareState",
      "tool",
      "tools",
      "versions",
    ]);
    // The client class has no base class (its protocol core is private) and only what a client application calls.
    const client = /^class McpClient \{\n([\s\S]*?)^\}/m.exec(index)?.[1] ?? "";
    expect([...client.matchAll(/^ {2}(\w+)[:(]/gm)].map((m) => m[1])).toEqual([
      "constructor",
      "callTool",
      "capabilities",
      "close",
      "complete",
      "connect",
      "discover",
      "era",
      "extension",
      "getPrompt",
      "handle",
      "instructions",
      "listAllPrompts",
      "listAllResourceTemplates",
      "listAllResources",
      "listAllTools",
      "listPrompts",
      "listResourceTemplates",
      "listResources",
      "listTools",
      "listen",
      "notify",
      "notifyRootsListChanged",
      "on",
      "ping",
      "readResource",
      "request",
      "revision",
      "revisionName",
      "serverCapabilities",
      "serverInfo",
      "setLogLevel",
      "subscribeResource",
      "unsubscribeResource",
    ]);
  }, 120_000);
});
