/**
 * Every relative link of README.md and docs/*.md points at a file that exists, and a `#fragment` at a heading of the
 * file it names (by GitHub's anchor rule), so the docs stay navigable when a page or a heading moves.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../generator/cli-run.ts";
import { anchors, githubSlug, relativeLinks, userDocs } from "./markdown.ts";

describe("anchors as GitHub makes them", () => {
  it.each([
    // The README linked this anchor before docs/ existed; GitHub resolved it.
    [
      "Typed clients for the servers you already use (`import --config`, `check --live`)",
      "typed-clients-for-the-servers-you-already-use-import---config-check---live",
    ],
    ["What's new?", "whats-new"],
    [
      "Cloudflare Workers, Deno and Bun (`@mcp-gen/runtime/http/web`)",
      "cloudflare-workers-deno-and-bun-mcp-genruntimehttpweb",
    ],
    ["snake_case and 2 numbers", "snake_case-and-2-numbers"],
    ["A [linked](x.md) heading", "a-linked-heading"],
  ])("%s → #%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe("relative links in README.md and docs/", () => {
  const links = userDocs().flatMap(relativeLinks);

  it("finds links (README links into docs/)", () => {
    expect(links.filter((l) => l.file === "README.md" && l.target.startsWith("docs/")).length).toBeGreaterThan(5);
  });

  it("every link names an existing file and, with a #fragment, one of its headings (file:line of each that does not)", () => {
    const broken: string[] = [];
    for (const link of links) {
      const [target = "", fragment] = link.target.split("#", 2);
      const file =
        target === "" ? link.file : path.posix.normalize(path.posix.join(path.posix.dirname(link.file), target));
      const absolute = path.join(REPO, file);
      if (file.startsWith("../") || !existsSync(absolute)) {
        broken.push(`${link.file}:${link.line}: ${link.target} (no such file)`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!file.endsWith(".md") || statSync(absolute).isDirectory() || !anchors(file).has(fragment))
        broken.push(`${link.file}:${link.line}: ${link.target} (no heading #${fragment} in ${file})`);
    }
    expect(broken).toEqual([]);
  });

  it("every page of docs/ is reached from the README by following links", () => {
    const reached = new Set(["README.md"]);
    for (let queue = ["README.md"]; queue.length > 0;) {
      for (const link of relativeLinks(queue.shift()!)) {
        const target = link.target.split("#", 1)[0] ?? "";
        const file = path.posix.normalize(path.posix.join(path.posix.dirname(link.file), target));
        if (target === "" || !file.endsWith(".md") || reached.has(file) || !existsSync(path.join(REPO, file))) continue;
        reached.add(file);
        queue.push(file);
      }
    }
    expect(userDocs().filter((file) => !reached.has(file))).toEqual([]);
  });

  it("every page of docs/ opens with the same navigation bar, the Tasks and Apps pages in it", () => {
    const bars = new Map<string, string>();
    for (const file of userDocs().filter((f) => f.startsWith("docs/"))) {
      const lines = readFileSync(path.join(REPO, file), "utf8").split("\n");
      const end = lines.indexOf("", 2);
      bars.set(file, lines.slice(2, end).join(" "));
    }
    const first = bars.get("docs/auth.md") ?? "";
    expect(first.startsWith("[README](../README.md)")).toBe(true);
    expect([...bars].filter(([, bar]) => bar !== first).map(([file]) => file)).toEqual([]);
    // The extension pages are linked from the bar (docs/tasks.md was linked from nowhere but runtime.md).
    for (const page of ["tasks.md", "apps.md", "deploying.md", "consumers.md"]) expect(first).toContain(`](${page})`);
  });
});
