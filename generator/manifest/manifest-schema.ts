/**
 * The manifest format (`mcp.yaml` / `mcp.json`), as a zod schema. This is the single definition: the loader
 * parses with it (good error paths), and the JSON Schema published for editors (`mcp-manifest.schema.json`) is
 * derived from it by `npm run generate:manifest-schema` (a test fails when the published file is stale).
 *
 * JSON Schemas inside the manifest (`inputSchema`, `outputSchema`) are kept as plain JSON objects here; they are
 * checked and lowered to the IR by `lower-json-schema.ts`, which reports errors with the same path style.
 */
import { z } from "zod";
import { IMPORT_EXTENSIONS } from "./defaults.ts";
import { Skills } from "./skill-schema.ts";
import { ToolUi, View } from "./view-schema.ts";

/** A JSON Schema object as written by the user: any JSON object. */
const JsonSchemaObject = z
  .record(z.string(), z.unknown())
  .describe(
    "A JSON Schema (2020-12 by default; draft-07 when `$schema` says so). Served to clients exactly as written.",
  );

const Icon = z.strictObject({
  src: z.string().min(1).describe("URL (https: or data:) of the icon."),
  mimeType: z.string().exactOptional(),
  sizes: z.array(z.string()).exactOptional().describe('Sizes such as "48x48" or "any".'),
  theme: z.enum(["light", "dark"]).exactOptional(),
});

const Annotations = z.strictObject({
  audience: z.array(z.enum(["user", "assistant"])).exactOptional(),
  priority: z.number().min(0).max(1).exactOptional(),
  lastModified: z.string().exactOptional(),
});

const ToolAnnotations = z.strictObject({
  title: z.string().exactOptional(),
  readOnlyHint: z.boolean().exactOptional(),
  destructiveHint: z.boolean().exactOptional(),
  idempotentHint: z.boolean().exactOptional(),
  openWorldHint: z.boolean().exactOptional(),
});

/** Whether a tool's calls may run as tasks (the runtime's `TaskSupport`). */
export const TASK_SUPPORT = ["forbidden", "optional", "required"] as const;
export type ManifestTaskSupport = (typeof TASK_SUPPORT)[number];

/** MCP 2025-11-25 tool name rule: 1–128 characters of `[A-Za-z0-9_.-]`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

const Tool = z.strictObject({
  name: z.string().regex(TOOL_NAME_PATTERN, "invalid tool name: use 1-128 characters of A-Z a-z 0-9 _ . -"),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  inputSchema: JsonSchemaObject.exactOptional().describe('Defaults to `{ "type": "object" }` (no arguments).'),
  outputSchema: JsonSchemaObject.exactOptional().describe(
    "When present, handlers must return matching structuredContent.",
  ),
  annotations: ToolAnnotations.exactOptional(),
  icons: z.array(Icon).exactOptional(),
  scopes: z
    .array(z.string().min(1))
    .exactOptional()
    .describe("OAuth scopes a caller's token must carry to call this tool (enforced by the HTTP auth layer)."),
  task: z
    .enum(TASK_SUPPORT)
    .exactOptional()
    .describe(
      "Tasks extension (io.modelcontextprotocol/tasks, stateless era): whether a call may run as a task. forbidden (default): always answered at once; optional: a task when the request declares the extension, else at once; required: a request that does not declare it gets -32021. The generated server then serves the extension, and the typed client gets a task form of the tool.",
    ),
  ui: ToolUi.exactOptional(),
});

const Resource = z.strictObject({
  uri: z.string().min(1),
  name: z.string().min(1),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  mimeType: z.string().exactOptional(),
  size: z.number().int().nonnegative().exactOptional(),
  annotations: Annotations.exactOptional(),
  icons: z.array(Icon).exactOptional(),
});

const TemplateVariable = z.strictObject({
  description: z.string().exactOptional(),
  completion: z.boolean().exactOptional().describe("The handler interface gets a completion method for this variable."),
});

const ResourceTemplate = z.strictObject({
  uriTemplate: z.string().min(1).describe("An RFC 6570 URI template; its variables become typed parameters."),
  name: z.string().min(1),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  mimeType: z.string().exactOptional(),
  annotations: Annotations.exactOptional(),
  icons: z.array(Icon).exactOptional(),
  variables: z.record(z.string(), TemplateVariable).exactOptional(),
});

const PromptArgument = z.strictObject({
  name: z.string().min(1),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  required: z.boolean().exactOptional(),
  completion: z.boolean().exactOptional().describe("The handler interface gets a completion method for this argument."),
});

const Prompt = z.strictObject({
  name: z.string().min(1),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  arguments: z.array(PromptArgument).exactOptional(),
  icons: z.array(Icon).exactOptional(),
});

/** A revision the user generated (`mcp-gen protocol --out <folder>`), by its folder relative to the manifest. */
const RevisionBindings = z.strictObject({
  bindings: z
    .string()
    .min(1)
    .describe("Folder of `mcp-gen protocol` output (holding revision.ts and ir.json), relative to the manifest."),
});

const Server = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  websiteUrl: z.string().exactOptional(),
  instructions: z.string().exactOptional(),
  icons: z.array(Icon).exactOptional(),
  revisions: z
    .array(z.union([z.string().min(1), RevisionBindings]))
    .min(1)
    .exactOptional()
    .describe(
      "Protocol revisions the server speaks: a built-in revision's name (2025-11-25), or { bindings: <folder> } for one generated with `mcp-gen protocol`. Default: every built-in revision.",
    ),
});

const ListChanged = z.strictObject({ listChanged: z.boolean().exactOptional() });
const ResourcesCapability = z.strictObject({
  listChanged: z.boolean().exactOptional(),
  subscribe: z.boolean().exactOptional(),
});

const Capabilities = z.strictObject({
  tools: ListChanged.exactOptional(),
  resources: ResourcesCapability.exactOptional(),
  prompts: ListChanged.exactOptional(),
  logging: z.boolean().exactOptional(),
  completions: z
    .boolean()
    .exactOptional()
    .describe("Default: true when any template variable or prompt argument has completion."),
});

const Generate = z.strictObject({
  out: z.string().min(1).exactOptional().describe("Output folder, relative to the manifest. Default: ./generated"),
  runtimeImport: z
    .string()
    .min(1)
    .exactOptional()
    .describe('Module specifier generated code imports the runtime from. Default: "@mcp-gen/runtime".'),
  importExtension: z
    .enum(IMPORT_EXTENSIONS)
    .exactOptional()
    .describe(
      'Extension of the relative imports between generated files: ".js" (default; module nodenext, bundlers, tsx), ".ts" (allowImportingTsExtensions, Deno) or "" (bundler resolution without extensions).',
    ),
  proveValidators: z
    .boolean()
    .exactOptional()
    .describe(
      "Whether your tsc proves each validator in schemas.ts against its declared type (default: true). false marks schemas.ts // @ts-nocheck: importers still see the declared types, tsc skips zod's inference (for manifests of hundreds of tools; mcp-gen's tests hold the proof).",
    ),
});

export const ManifestSchema = z
  .strictObject({
    $schema: z.string().exactOptional(),
    server: Server,
    capabilities: Capabilities.exactOptional(),
    tools: z.array(Tool).exactOptional(),
    resources: z.array(Resource).exactOptional(),
    resourceTemplates: z.array(ResourceTemplate).exactOptional(),
    prompts: z.array(Prompt).exactOptional(),
    ui: z
      .array(View)
      .exactOptional()
      .describe(
        "MCP Apps (io.modelcontextprotocol/ui): the views of this server, each an HTML file served as a ui:// resource that tools link to with their `ui.view`.",
      ),
    skills: Skills.exactOptional().describe(
      "Skills (io.modelcontextprotocol/skills): folders of Agent Skills the server serves, read and checked when generating; every file is embedded with its SHA-256 and size.",
    ),
    generate: Generate.exactOptional(),
  })
  .describe("mcp-gen manifest: the tools, resources, resource templates and prompts of one MCP server.");

/**
 * The manifest objects a protocol revision may add fields to, with the fields the manifest itself defines: the
 * capabilities (and a capability's object) and the entries of each list. Other fields of these objects are checked
 * against the IR of the revisions the server speaks (`revision-extras.ts`), not by this schema, so the published
 * JSON Schema lists the manifest's own fields only.
 */
export const EXTENSIBLE = {
  capabilities: { "": Capabilities, tools: ListChanged, resources: ResourcesCapability, prompts: ListChanged },
  tools: { "": Tool },
  resources: { "": Resource },
  resourceTemplates: { "": ResourceTemplate },
  prompts: { "": Prompt },
} as const;

/** The parts of a manifest, each checked on its own when the whole fails (so lowering can still run on the rest). */
export const ManifestParts = {
  Server,
  Capabilities,
  Generate,
  Tool,
  Resource,
  ResourceTemplate,
  Prompt,
  View,
  Skills,
} as const;

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestTool = z.infer<typeof Tool>;
export type ManifestResource = z.infer<typeof Resource>;
export type ManifestResourceTemplate = z.infer<typeof ResourceTemplate>;
export type ManifestPrompt = z.infer<typeof Prompt>;
export type ManifestIcon = z.infer<typeof Icon>;
export type { ManifestToolUi, ManifestView, ManifestVisibility } from "./view-schema.ts";
export type { ManifestSkillFolder, ManifestSkills } from "./skill-schema.ts";

/** The JSON Schema published for editors, derived from `ManifestSchema`. */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ManifestSchema, { target: "draft-2020-12", io: "input" });
  return { ...schema, title: "mcp-gen manifest" };
}
