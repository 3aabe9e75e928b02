/**
 * MCP Apps pairing rules at generation time (issue 37 item 1): each rule's exact error, file:line:col and manifest
 * path, every problem of a run reported at once; and what a valid `ui` lowers to. View files are real files beside
 * a real manifest, read by the pipeline's reader.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ManifestError } from "../../../generator/manifest/errors.ts";
import { isHtmlDocument } from "../../../generator/manifest/lower-views.ts";
import { lowerManifestJob } from "../../../generator/pipeline/manifest.ts";

const root = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-views-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cases = 0;
/** A project folder holding `mcp.yaml` and the given files; returns the manifest's path. */
function project(manifest: string, files: Readonly<Record<string, string>> = {}): string {
  const dir = path.join(root, `p${cases++}`);
  for (const [name, text] of Object.entries({ ...files, "mcp.yaml": manifest })) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return path.join(dir, "mcp.yaml");
}

async function errorLines(manifestPath: string): Promise<string[]> {
  try {
    await lowerManifestJob({ manifestPath });
  } catch (error) {
    if (error instanceof ManifestError) return error.lines().map((l) => l.replace(manifestPath, "mcp.yaml"));
    throw error;
  }
  throw new Error("expected a ManifestError");
}

const HTML = "<!doctype html>\n<html><body>view</body></html>\n";

describe("MCP Apps pairing rules", () => {
  it("reports every broken rule of one manifest at once, each at its line", async () => {
    const manifest = [
      "server: { name: s, version: 1.0.0 }", // 1
      "ui:", // 2
      "  - name: forecast", // 3
      "    file: views/forecast.html", // 4
      "  - name: missing", // 5
      "    file: views/nowhere.html", // 6
      "  - name: text", // 7
      "    file: views/notes.txt", // 8
      "  - name: fragment", // 9
      "    file: views/fragment.html", // 10
      "  - name: forecast", // 11
      "    file: views/forecast.html", // 12
      "  - name: cdn", // 13
      "    file: views/forecast.html", // 14
      '    csp: { connectDomains: ["https://ok.example.com; script-src *"] }', // 15
      "tools:", // 16
      "  - name: a", // 17
      "    ui: { view: forcast }", // 18
      "  - name: b", // 19
      "    ui: { visibility: [app] }", // 20
      "  - name: c", // 21
      "    ui: { view: forecast, visibility: [app, app] }", // 22
      "",
    ].join("\n");
    const lines = await errorLines(
      project(manifest, {
        "views/forecast.html": HTML,
        "views/notes.txt": HTML,
        "views/fragment.html": "<div>not a document</div>",
      }),
    );
    expect(lines).toEqual([
      'mcp.yaml:6:11: ui[1].file: view file "views/nowhere.html" does not exist (build the view first when it is a bundle)',
      'mcp.yaml:8:11: ui[2].file: view file "views/notes.txt" is not an .html file',
      'mcp.yaml:10:11: ui[3].file: view file "views/fragment.html" is not an HTML document (it must start with <!doctype html> or <html>)',
      'mcp.yaml:11:11: ui[4].name: duplicate view name "forecast" (first at ui[0])',
      "mcp.yaml:15:29: ui[5].csp.connectDomains[0]: not an origin: write scheme://host[:port] (https, http, wss or ws; *.host allowed)",
      'mcp.yaml:18:17: tools[0].ui.view: no view named "forcast" (did you mean "forecast"?); the views are forecast, missing, text, fragment',
      "mcp.yaml:20:9: tools[1].ui: an app-only tool (visibility [app]) must be linked to a view (ui.view): otherwise no view can call it and the model never sees it",
      "mcp.yaml:22:39: tools[2].ui.visibility: a visibility is listed twice",
    ]);
  });

  it("names the fix when the manifest declares no views", async () => {
    const manifest = "server: { name: s, version: 1.0.0 }\ntools:\n  - name: a\n    ui: { view: card }\n";
    expect(await errorLines(project(manifest))).toEqual([
      'mcp.yaml:4:17: tools[0].ui.view: no view named "card"; the manifest declares no ui views',
    ]);
  });

  it("refuses a visibility list that is empty and a view uri that is not ui://", async () => {
    const manifest = [
      "server: { name: s, version: 1.0.0 }",
      "ui:",
      "  - { name: v, file: v.html, uri: https://example.com/v }",
      "tools:",
      "  - name: a",
      "    ui: { view: v, visibility: [] }",
      "",
    ].join("\n");
    expect(await errorLines(project(manifest, { "v.html": HTML }))).toEqual([
      "mcp.yaml:3:35: ui[0].uri: a view's uri is a ui:// URI",
      "mcp.yaml:6:32: tools[0].ui.visibility: Too small: expected array to have >=1 items",
    ]);
  });

  it("lowers a valid view: its URI, resource entry, _meta.ui and text, and the tools linked to it", async () => {
    const manifest = [
      "server: { name: weather, version: 1.0.0 }",
      "ui:",
      "  - name: card",
      "    file: views/card.html",
      "    permissions: [camera, geolocation]",
      "tools:",
      "  - { name: show, ui: { view: card } }",
      "  - { name: poll, ui: { view: card, visibility: [app] } }",
      "  - { name: other }",
      "",
    ].join("\n");
    const { model } = await lowerManifestJob({ manifestPath: project(manifest, { "views/card.html": HTML }) });
    expect(model.views).toEqual([
      {
        name: "card",
        identifier: "Card",
        uri: "ui://weather/card",
        file: "views/card.html",
        text: HTML,
        descriptor: {
          uri: "ui://weather/card",
          name: "card",
          mimeType: "text/html;profile=mcp-app",
          _meta: { ui: { permissions: { camera: {}, geolocation: {} } } },
        },
        meta: { permissions: { camera: {}, geolocation: {} } },
        tools: ["show", "poll"],
      },
    ]);
    expect(model.tools.map((t) => [t.name, t.ui])).toEqual([
      ["show", { view: "card", resourceUri: "ui://weather/card" }],
      ["poll", { view: "card", resourceUri: "ui://weather/card", visibility: ["app"] }],
      ["other", undefined],
    ]);
    expect(model.capabilities.resources).toEqual({ listChanged: false, subscribe: false });
  });

  it("knows an HTML document from a fragment", () => {
    expect(isHtmlDocument("\uFEFF  <!-- built -->\n<!DOCTYPE html><html></html>")).toBe(true);
    expect(isHtmlDocument("<html lang=en>")).toBe(true);
    expect(isHtmlDocument("<!doctype htmlx>")).toBe(false);
    expect(isHtmlDocument("<script>alert(1)</script>")).toBe(false);
    expect(isHtmlDocument("")).toBe(false);
  });
});
