/**
 * The model of one user manifest, produced by `lowerManifest` and consumed by the emitters in
 * `generator/emit/user/`. Its types are the shared IR (`IrTypeDecl`/`IrType` from `generator/ir/model.ts`),
 * so user tool types and MCP protocol types go through the same TypeScript and zod printers.
 *
 * Like the IR it is plain data: names already derived, every decision taken, nothing about files or templates.
 */
import type { IrSource, IrTypeDecl } from "../ir/model.ts";
import type { ImportExtension } from "./defaults.ts";
import type { ManifestPath } from "./errors.ts";
import type { ManifestIcon, ManifestTaskSupport, ManifestVisibility } from "./manifest-schema.ts";

export interface UserModel {
  /** Display path of the manifest (relative, `/`-separated) and the sha256 of its bytes. */
  readonly source: IrSource;
  readonly server: UserServerInfo;
  readonly capabilities: UserCapabilities;
  /** Every named type, in manifest order: per tool Input, its `$defs`, Output, its `$defs`; then templates, prompts. */
  readonly types: readonly IrTypeDecl[];
  readonly tools: readonly UserTool[];
  readonly resources: readonly UserResource[];
  readonly resourceTemplates: readonly UserResourceTemplate[];
  readonly prompts: readonly UserPrompt[];
  /** MCP Apps views (the manifest's `ui`): served as `ui://` resources; some: the server serves the extension. */
  readonly views: readonly UserView[];
  /** Skills (the manifest's `skills`): served through the Skills extension; absent: the manifest declares none. */
  readonly skills?: UserSkills;
  /** Requests of the listed revisions the runtime does not serve itself, served by typed handlers; by method. */
  readonly methods: readonly UserMethod[];
  /** Some tool may run as a task: the server serves the Tasks extension (and the typed client has a task form). */
  readonly tasks: boolean;
  /** Some definition carries a field a served revision declares beyond the manifest's own (lists are typed wider). */
  readonly definitionFields: boolean;
  readonly warnings: readonly UserWarning[];
  /** Module specifier the generated files import the runtime from. */
  readonly runtimeImport: string;
  /** Whether schemas.ts is type-checked in the user's project (`generate.proveValidators`), or marked `// @ts-nocheck`. */
  readonly proveValidators: boolean;
  /** Extension of the relative imports between generated files (`.js`, `.ts` or none). */
  readonly importExtension: ImportExtension;
}

export interface UserWarning {
  readonly path: ManifestPath;
  readonly message: string;
}

export interface UserServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly websiteUrl?: string;
  readonly instructions?: string;
  readonly icons?: readonly ManifestIcon[];
  /** Undefined: every revision the runtime knows. */
  readonly revisions?: readonly UserRevision[];
}

/**
 * A revision the generated server speaks: a built-in one (imported from the runtime's `protocol/<name>` entry), or a
 * folder of `mcp-gen protocol` output (imported by a relative path), so generated code references only these.
 */
export type UserRevision =
  | { readonly kind: "builtin"; readonly name: string }
  | {
      readonly kind: "bindings";
      /** The folder as the manifest spells it. */
      readonly folder: string;
      /** Its `revision` module, relative to the output folder, `/`-separated, without extension (`../protocol/draft/revision`). */
      readonly module: string;
    };

/**
 * Resolved capability switches (defaults applied). Only kinds the manifest declares appear. Any other key (and any
 * other field of a kind's object) is one a served revision declares, checked against its IR and served as written.
 */
export interface UserCapabilities {
  readonly tools?: { readonly listChanged: boolean; readonly [field: string]: unknown };
  readonly resources?: {
    readonly listChanged: boolean;
    readonly subscribe: boolean;
    readonly [field: string]: unknown;
  };
  readonly prompts?: { readonly listChanged: boolean; readonly [field: string]: unknown };
  readonly logging: boolean;
  readonly completions: boolean;
  readonly [capability: string]: unknown;
}

/** A request a revision adds that the runtime does not serve itself: the generated server takes a typed handler. */
export interface UserMethod {
  readonly method: string;
  /** Index in `server.revisions` of the revision whose method token types the handler. */
  readonly revision: number;
  readonly doc?: string;
}

/** A schema as the user wrote it, plus the name of its lowered type and how it is validated. */
export interface UserSchema {
  /** The declaration in `UserModel.types` (e.g. `GetForecastInput`). */
  readonly typeName: string;
  /** The original JSON, served unchanged in `tools/list`. */
  readonly json: Readonly<Record<string, unknown>>;
  /**
   * Keywords only a JSON Schema validator checks (see `lower-json-schema.ts`). Non-empty: the zod validator
   * also runs the original schema through the JSON Schema validator.
   */
  readonly enforcedByJsonSchema: readonly string[];
}

export interface UserTool {
  readonly name: string;
  /** PascalCase stem of every generated name for this tool (`get_forecast` → `GetForecast`). */
  readonly identifier: string;
  /** Its method in the typed client (`get_forecast` → `getForecast`); `name` stays what goes on the wire. */
  readonly member: string;
  /** The input type requires no property, so the typed client's `input` may be left out (`{}` is sent). */
  readonly inputOptional: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly input: UserSchema;
  readonly output?: UserSchema;
  readonly annotations?: Readonly<Record<string, unknown>>;
  readonly icons?: readonly ManifestIcon[];
  /** Required OAuth scopes (empty: none). */
  readonly scopes: readonly string[];
  /** Tasks extension: whether a call may run as a task (`forbidden`: never; the manifest's `task`). */
  readonly task: ManifestTaskSupport;
  /** Fields of the tool definition a served revision declares beyond the manifest's own, as written. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** MCP Apps: the view the tool links to and who may call it (the manifest's `ui`). */
  readonly ui?: UserToolUi;
}

/** A tool's MCP Apps link: written to its definition as `_meta.ui` (and the deprecated `_meta["ui/resourceUri"]`). */
export interface UserToolUi {
  /** The view's name and URI; absent for a tool that only states its visibility. */
  readonly view?: string;
  readonly resourceUri?: string;
  /** As declared; absent: both (the spec's default). */
  readonly visibility?: readonly ManifestVisibility[];
}

/** An MCP Apps view: an HTML document served as a `ui://` resource (`text/html;profile=mcp-app`). */
export interface UserView {
  readonly name: string;
  /** PascalCase stem of generated names (`forecast-card` → `ForecastCard`). */
  readonly identifier: string;
  readonly uri: string;
  /** The file as the manifest names it (relative to the manifest). */
  readonly file: string;
  /** The HTML served, as read at generation time. */
  readonly text: string;
  /** The `resources/list` entry: uri, name, title, description, mimeType and `_meta.ui` when declared. */
  readonly descriptor: Readonly<Record<string, unknown>>;
  /** The resource's `_meta.ui` (csp, permissions, domain, prefersBorder as declared; empty when none). */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The tools linked to it, in manifest order. */
  readonly tools: readonly string[];
}

/** The skills a server serves, as read at generation time, and whether it serves `resources/directory/read`. */
export interface UserSkills {
  readonly directoryRead: boolean;
  /** In folder order, each folder's nested skills after it. */
  readonly skills: readonly UserSkill[];
  /** Every file's content once, by `<skill path>/<file path>`, sorted by key. */
  readonly contents: readonly UserSkillContent[];
}

/** One skill: its path in the server's namespace (`acme/billing/refunds`), frontmatter, and every file's record. */
export interface UserSkill {
  readonly path: string;
  /** The skill's folder relative to the manifest (as the manifest names it; a nested skill's below that). */
  readonly folder: string;
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [field: string]: unknown };
  readonly files: readonly { readonly path: string; readonly sha256: string; readonly size: number }[];
}

/** A skill file's bytes as embedded in the generated code: text when UTF-8, else Base64. */
export type UserSkillContent = { readonly key: string } & ({ readonly text: string } | { readonly base64: string });

export interface UserResource {
  readonly uri: string;
  readonly name: string;
  /** The `resources/list` entry, as the manifest declares it (without manifest-only fields). */
  readonly descriptor: Readonly<Record<string, unknown>>;
}

export interface UserTemplateVariable {
  readonly name: string;
  /** `{list*}` / `{?a*}`: the explode modifier. */
  readonly explode: boolean;
  /** In a query expression (`{?a}`, `{&a}`): a URI may leave it out. */
  readonly optional: boolean;
  readonly description?: string;
  readonly completion: boolean;
}

export interface UserResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly identifier: string;
  /** Its method in the typed client (`Dynamic Text Resource` → `dynamicTextResource`). */
  readonly member: string;
  readonly variables: readonly UserTemplateVariable[];
  /** Declaration of the variables object type (`<Identifier>Variables`). */
  readonly variablesTypeName: string;
  /** Every variable is optional (query forms only), so the typed client's `variables` may be left out. */
  readonly variablesOptional: boolean;
  readonly descriptor: Readonly<Record<string, unknown>>;
}

export interface UserPromptArgument {
  readonly name: string;
  readonly required: boolean;
  readonly description?: string;
  readonly completion: boolean;
}

export interface UserPrompt {
  readonly name: string;
  readonly identifier: string;
  /** Its method in the typed client (`plan-trip` → `planTrip`). */
  readonly member: string;
  readonly arguments: readonly UserPromptArgument[];
  /** Declaration of the arguments object type (`<Identifier>Arguments`). */
  readonly argumentsTypeName: string;
  /** No argument is required, so the typed client's `args` may be left out. */
  readonly argumentsOptional: boolean;
  readonly descriptor: Readonly<Record<string, unknown>>;
}
