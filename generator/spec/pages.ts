/**
 * Spec-root files assembled from a specification page rather than copied (data, like `pins.ts`): an extension whose
 * types live only in TypeScript blocks of its page's prose. A download takes the page at the pinned commit of the
 * extension's repository (`pipeline/spec-source.ts`), and `assembleFromPage` builds the file: `prelude` (what the
 * page states in prose or tables: its header, the import of the base names it references, a table rendered as a
 * declaration), then every ```typescript block in page order with `export` added. The result must have the file's
 * pinned SHA-256, exactly as a copy from `MCP_SPEC_DIR` or ../shared/spec must.
 */
export interface PageAssembly {
  /** The page, relative to the extension repository's folder. */
  readonly page: string;
  readonly prelude: string;
}

export const PAGE_ASSEMBLIES: Readonly<Record<string, PageAssembly>> = {
  "extensions/skills/schema.ts": {
    page: "skills.mdx",
    prelude:
      "/**\n * MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, Final).\n *\n * The declarations of the TypeScript blocks of the extension's specification page\n * (github.com/modelcontextprotocol/ext-skills, specification/stable/skills.mdx), in the page's order, with `export`\n * added. The page has no schema.ts of its own; names it references without defining are the base schema's at\n * revision 2026-07-28 (imported below). `SkillsCapability` renders the page's table of extension settings.\n */\n\nimport type { CacheableResult, Cursor, PaginatedRequest, PaginatedResult, Request, Resource } from \"../../2026-07-28/schema.js\";\n\n/**\n * The extension's settings, under `capabilities.extensions[\"io.modelcontextprotocol/skills\"]`.\n * An empty object declares the extension with no optional features.\n */\nexport interface SkillsCapability {\n  /** The server implements `resources/directory/read`. Default: false. */\n  directoryRead?: boolean;\n}\n\n",
  },
};
