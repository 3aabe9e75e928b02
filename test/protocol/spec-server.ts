/**
 * A loopback stand-in for raw.githubusercontent.com serving a copy of the spec files (the repository's `.spec/`),
 * laid out as the two public repositories are at the pinned commits (the URLs written out here, from
 * ../shared/spec/SOURCE.md and ../shared/spec/extensions/skills/SOURCE.md, not computed by the code under test). The
 * Skills page is a stand-in too: prose around ```typescript blocks holding the copy's declarations (after its
 * table-rendered `SkillsCapability`) without `export`, as the real page writes them, and a ```json block that must
 * be left out. `serve` serves altered bytes for one path; `requests` counts what was asked.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const SPEC = "/modelcontextprotocol/modelcontextprotocol/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/";
const TASKS = "/modelcontextprotocol/ext-tasks/e4345978be1f602f1fc48d89051e8559dd5302a6/schema/draft/";
export const SKILLS_PAGE =
  "/modelcontextprotocol/ext-skills/0682b7b6e9e661fbf8538e27cbd3e7282927b45a/specification/stable/skills.mdx";

/** A page whose TypeScript blocks are the declarations of the copy's assembled Skills schema. */
export function skillsPage(schema: string): string {
  const start = schema.indexOf("}\n\n", schema.indexOf("export interface SkillsCapability")) + 3;
  const declarations = schema
    .slice(start)
    .trimEnd()
    .split(/\n\n(?=\/\*\*|export )/);
  const blocks = declarations.map((d) => `Prose.\n\n\`\`\`typescript\n${d.replace(/^export /gm, "")}\n\`\`\`\n`);
  return `---\ntitle: Skills\n---\n\n\`\`\`json\n{ "interface": 1 }\n\`\`\`\n\n${blocks.join("\n")}`;
}

export interface SpecServer {
  readonly url: string;
  readonly requests: string[];
  /** Serve `body` for `urlPath` instead of the copy (a tampered or unpinned file). */
  serve(urlPath: string, body: string | Buffer): void;
  close(): Promise<void>;
}

/** The spec-root path a request maps to, or undefined for anything else (404). */
function specPath(urlPath: string): string | undefined {
  if (urlPath.startsWith(SPEC)) return urlPath.slice(SPEC.length);
  if (urlPath.startsWith(TASKS)) return `extensions/tasks/${urlPath.slice(TASKS.length)}`;
  return undefined;
}

export async function startSpecServer(copy: string): Promise<SpecServer> {
  const requests: string[] = [];
  const overrides = new Map<string, string | Buffer>();
  const server: Server = createServer((req, res) => {
    const urlPath = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(urlPath);
    const override = overrides.get(urlPath);
    if (override !== undefined) return void res.end(override);
    if (urlPath === SKILLS_PAGE)
      return void res.end(skillsPage(readFileSync(path.join(copy, "extensions/skills/schema.ts"), "utf8")));
    const rel = specPath(urlPath);
    if (rel === undefined || rel.split("/").includes("..")) return void res.writeHead(404).end();
    try {
      res.end(readFileSync(path.join(copy, rel)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    serve: (urlPath, body) => void overrides.set(urlPath, body),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const SPEC_URL_PREFIX = SPEC;
