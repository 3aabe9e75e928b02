/**
 * Validated manifest → `UserModel`. Derives every generated name, lowers every JSON Schema into the shared IR,
 * parses RFC 6570 templates (with the runtime's runtime/protocol/uri-template.ts) into typed variables, and rejects what cannot be
 * generated: duplicate names, names that collide once turned into identifiers, bad templates, bad schemas.
 */
import { uriTemplateVariables } from "@mcp-gen/runtime";
import type { IrProp, IrSource, IrType, IrTypeDecl } from "../ir/model.ts";
import { DEFAULT_IMPORT_EXTENSION, DEFAULT_RUNTIME_IMPORT, type ImportExtension } from "./defaults.ts";
import { SchemaProblem, formatPath, type ManifestPath } from "./errors.ts";
import { lowerJsonSchema } from "./lower-json-schema.ts";
import { lowerSkills, type SkillReader } from "./lower-skills.ts";
import { lowerViews, type ViewReader } from "./lower-views.ts";
import { duplicates, nameClashes, reportDuplicates, unique } from "./duplicates.ts";
import { lowerRevisions, serverInfo, servedRevisions, type RevisionLookup } from "./lower-revisions.ts";
import {
  checkRevisionFields,
  newMethods,
  withCapabilityFields,
  withFields,
  type RevisionExtra,
} from "./revision-extras.ts";
import type { Manifest, ManifestPrompt, ManifestResourceTemplate, ManifestTool } from "./manifest-schema.ts";
import { namesOf, pascalName } from "./names.ts";
import type {
  UserCapabilities,
  UserModel,
  UserPrompt,
  UserResource,
  UserResourceTemplate,
  UserSchema,
  UserTemplateVariable,
  UserTool,
  UserWarning,
} from "./user-model.ts";

const STRING: IrType = { kind: "primitive", name: "string" };

interface Collected {
  readonly types: IrTypeDecl[];
  readonly warnings: UserWarning[];
  readonly takenNames: Set<string>;
  readonly problems: SchemaProblem[];
}

/** The lists of a manifest whose entries are lowered one by one. */
export type ManifestList = "tools" | "resources" | "resourceTemplates" | "prompts" | "ui";

/**
 * Thrown by `lowerManifest` with every problem it found, in manifest order (each entry is lowered on its own, so one
 * bad tool does not hide another; an entry with a duplicate name is reported once, not lowered).
 */
export class SchemaProblems extends Error {
  constructor(readonly problems: readonly SchemaProblem[]) {
    super(problems[0]?.message ?? "invalid manifest");
    this.name = "SchemaProblems";
  }
}

/** Runs one lowering step; a `SchemaProblem` is recorded and the step yields undefined. */
function attempt<T>(acc: Collected, step: () => T): T | undefined {
  try {
    return step();
  } catch (error) {
    if (error instanceof SchemaProblems) acc.problems.push(...error.problems);
    else if (error instanceof SchemaProblem) acc.problems.push(error);
    else throw error;
    return undefined;
  }
}

export type { BindingsLookup } from "./lower-revisions.ts";

/** What lowering needs besides the manifest; the caller reads it (lowering reads no disk). */
export interface LowerOptions extends RevisionLookup {
  /** Display path of the manifest (relative to the output folder, `/`-separated) and the sha256 of its bytes. */
  readonly source: IrSource;
  /** Overrides the manifest's `generate.importExtension` (the CLI's `--import-extension`). */
  readonly importExtension?: ImportExtension;
  /** Every method of the built-in revisions: the runtime serves these itself; others get typed handlers. */
  readonly builtinMethods?: ReadonlySet<string>;
  /** Reads an MCP Apps view's file (absent: view files are not read; their text is empty). */
  readonly readView?: ViewReader;
  /** Reads and checks a skill folder (absent: skill folders are not read; no skills are served). */
  readonly readSkills?: SkillReader;
}

/** One lowering run: what it collects, and where each list entry and its revision-declared fields come from. */
interface Run {
  readonly acc: Collected;
  /** A list position → the entry's index in the manifest file. */
  readonly at: (list: ManifestList) => (i: number) => number;
  /** The revision-declared fields of the manifest object at `path`, as written. */
  readonly fieldsAt: (path: ManifestPath) => Readonly<Record<string, unknown>>;
}

/** Lowers each entry of a list on its own (a bad one is recorded and left out); entries in `skip` are left out. */
function lowerEach<T, R>(
  run: Run,
  list: ManifestList,
  items: readonly T[],
  skip: ReadonlySet<number>,
  lower: (item: T, path: ManifestPath) => R,
): R[] {
  return items.flatMap((item, i) => {
    if (skip.has(i)) return [];
    const lowered = attempt(run.acc, () => lower(item, [list, run.at(list)(i)]));
    return lowered === undefined ? [] : [lowered];
  });
}

type Entries = Pick<UserModel, "tools" | "resources" | "resourceTemplates" | "prompts">;

/** The manifest's tools, resources, resource templates and prompts, each list checked for duplicates first. */
function lowerEntries(manifest: Manifest, run: Run): Entries {
  const { acc, at, fieldsAt } = run;
  const declaredTools = manifest.tools ?? [];
  const badTools = reportDuplicates(acc.problems, nameClashes(declaredTools, "tools", "tool", at("tools")));
  const tools = lowerEach(run, "tools", declaredTools, badTools, (tool, path) => ({
    ...lowerTool(tool, path, acc),
    fields: fieldsAt(path),
  }));

  const declaredResources = manifest.resources ?? [];
  const resourceAt = at("resources");
  reportDuplicates(acc.problems, [
    duplicates(declaredResources, "resources", "resource uri", (r) => r.uri, "uri", resourceAt),
  ]);
  const resources = declaredResources.map(({ uri, name, ...rest }, i): UserResource => {
    return { uri, name, descriptor: { uri, name, ...rest, ...fieldsAt(["resources", resourceAt(i)]) } };
  });

  const declaredTemplates = manifest.resourceTemplates ?? [];
  const templateAt = at("resourceTemplates");
  const badTemplates = reportDuplicates(acc.problems, [
    duplicates(declaredTemplates, "resourceTemplates", "uriTemplate", (t) => t.uriTemplate, "uriTemplate", templateAt),
    ...nameClashes(declaredTemplates, "resourceTemplates", "resource template", templateAt),
  ]);
  const resourceTemplates = lowerEach(run, "resourceTemplates", declaredTemplates, badTemplates, (t, path) =>
    withFields(lowerTemplate(t, path, acc), fieldsAt(path)),
  );

  const declaredPrompts = manifest.prompts ?? [];
  const badPrompts = reportDuplicates(acc.problems, nameClashes(declaredPrompts, "prompts", "prompt", at("prompts")));
  const prompts = lowerEach(run, "prompts", declaredPrompts, badPrompts, (p, path) =>
    withFields(lowerPrompt(p, path, acc), fieldsAt(path)),
  );
  return { tools, resources, resourceTemplates, prompts };
}

/**
 * The capabilities the server declares: each list that has entries (or that the manifest switches on), logging as
 * declared, completions when declared or when a template variable or prompt argument offers completion.
 */
function capabilitySwitches(manifest: Manifest, entries: Entries): UserCapabilities {
  const { tools, resources, resourceTemplates, prompts } = entries;
  const files = (manifest.ui?.length ?? 0) + (manifest.skills ? 1 : 0); // views and skills are served as resources
  const hasCompletion =
    resourceTemplates.some((t) => t.variables.some((v) => v.completion)) ||
    prompts.some((p) => p.arguments.some((a) => a.completion));
  const caps = manifest.capabilities ?? {};
  return {
    ...(tools.length > 0 || caps.tools ? { tools: { listChanged: caps.tools?.listChanged ?? false } } : {}),
    ...(resources.length + resourceTemplates.length + files > 0 || caps.resources
      ? {
          resources: {
            listChanged: caps.resources?.listChanged ?? false,
            subscribe: caps.resources?.subscribe ?? false,
          },
        }
      : {}),
    ...(prompts.length > 0 || caps.prompts ? { prompts: { listChanged: caps.prompts?.listChanged ?? false } } : {}),
    logging: caps.logging ?? false,
    completions: caps.completions ?? hasCompletion,
  };
}

/**
 * Throws `SchemaProblems` listing every problem found. `origin` maps a list position back to the entry's index in
 * the manifest file, for a manifest whose structurally invalid entries were left out before lowering (see
 * load-manifest.ts); by default positions are the file's.
 */
export function lowerManifest(
  manifest: Manifest,
  options: LowerOptions,
  origin: Partial<Record<ManifestList, readonly number[]>> = {},
  extras: readonly RevisionExtra[] = [],
): UserModel {
  const acc: Collected = { types: [], warnings: [], takenNames: new Set(), problems: [] };
  const revisions = lowerRevisions(manifest, options, acc.problems);
  const served = servedRevisions(revisions, options, extras.length > 0 ? "all" : "bindings");
  const revisionFields = checkRevisionFields(extras, served);
  acc.problems.push(...revisionFields.problems);
  const fieldsAt = (path: ManifestPath) => revisionFields.accepted.get(formatPath(path)) ?? {};
  const at = (list: ManifestList) => (i: number) => origin[list]?.[i] ?? i;
  const lowered = lowerEntries(manifest, { acc, at, fieldsAt });
  const { views, tools } = lowerViews(
    manifest,
    lowered.tools,
    acc.problems,
    { views: at("ui"), tools: at("tools") },
    options.readView,
  );
  const entries = { ...lowered, tools };
  const skills = lowerSkills(manifest, acc.problems, options.readSkills);
  if (acc.problems.length > 0) throw new SchemaProblems(acc.problems);

  const capabilities = withCapabilityFields(capabilitySwitches(manifest, entries), fieldsAt);
  return {
    source: options.source,
    server: serverInfo(manifest.server, revisions),
    capabilities,
    types: acc.types,
    ...entries,
    views,
    ...(skills ? { skills } : {}),
    methods: newMethods(served, capabilities, options.builtinMethods),
    tasks: entries.tools.some((t) => t.task !== "forbidden"),
    definitionFields: revisionFields.definitionFields,
    warnings: acc.warnings,
    runtimeImport: manifest.generate?.runtimeImport ?? DEFAULT_RUNTIME_IMPORT,
    proveValidators: manifest.generate?.proveValidators ?? true,
    importExtension: options.importExtension ?? manifest.generate?.importExtension ?? DEFAULT_IMPORT_EXTENSION,
  };
}

/** Lowers both schemas of a tool before giving up, so a bad `inputSchema` does not hide a bad `outputSchema`. */
function lowerTool(tool: ManifestTool, path: ManifestPath, acc: Collected): Omit<UserTool, "fields"> {
  const names = namesOf(tool.name);
  const lower = (json: Record<string, unknown>, part: "input" | "output") =>
    attempt(acc, () =>
      lowerSchema(json, `${names.identifier}${part === "input" ? "Input" : "Output"}`, [...path, `${part}Schema`], acc),
    );
  const input = lower(tool.inputSchema ?? { type: "object" }, "input");
  const output = tool.outputSchema ? lower(tool.outputSchema, "output") : undefined;
  // Both problems are recorded already; an empty SchemaProblems leaves the tool out.
  if (input === undefined || (tool.outputSchema && !output)) throw new SchemaProblems([]);
  return {
    ...names,
    inputOptional: acceptsEmpty(acc, input),
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    input,
    ...(output ? { output } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons } : {}),
    scopes: tool.scopes ?? [],
    task: tool.task ?? "forbidden",
  };
}

/** `{}` is valid (what the typed client sends for a left-out input): an object type requiring no property. */
function acceptsEmpty(acc: Collected, schema: UserSchema): boolean {
  const type = acc.types.find((decl) => decl.name === schema.typeName)?.type;
  const min = schema.json["minProperties"];
  return type?.kind === "object" && type.props.every((p) => p.optional) && !(typeof min === "number" && min > 0);
}

/** Tool schemas must describe objects (MCP: `inputSchema.type` / `outputSchema.type` is `"object"`). */
function lowerSchema(json: Record<string, unknown>, name: string, path: ManifestPath, acc: Collected): UserSchema {
  if (json["type"] !== "object") throw new SchemaProblem([...path, "type"], 'a tool schema must have "type": "object"');
  const lowered = lowerJsonSchema(json, name, path, acc.takenNames);
  acc.types.push(...lowered.decls);
  acc.warnings.push(...lowered.warnings);
  return { typeName: name, json, enforcedByJsonSchema: lowered.enforcedByJsonSchema };
}

function lowerTemplate(t: ManifestResourceTemplate, path: ManifestPath, acc: Collected): UserResourceTemplate {
  let found;
  try {
    found = uriTemplateVariables(t.uriTemplate);
  } catch (error) {
    throw new SchemaProblem([...path, "uriTemplate"], `invalid RFC 6570 URI template: ${firstLine(error)}`);
  }
  const variables = found.map((v): UserTemplateVariable => {
    const declared = t.variables?.[v.name];
    return {
      name: v.name,
      explode: v.explode,
      // Query forms (`{?a}`, `{&a}`) may be left out of a URI; every other expression is part of its shape.
      optional: v.operator === "?" || v.operator === "&",
      ...(declared?.description !== undefined ? { description: declared.description } : {}),
      completion: declared?.completion ?? false,
    };
  });
  for (const declared of Object.keys(t.variables ?? {})) {
    if (!variables.some((v) => v.name === declared)) {
      throw new SchemaProblem(
        [...path, "variables", declared],
        `variable ${declared} does not appear in the uriTemplate`,
      );
    }
  }
  const names = namesOf(t.name);
  const variablesTypeName = `${names.identifier}Variables`;
  const props: IrProp[] = variables.map((v) => ({
    name: v.name,
    // The runtime's matcher yields one (decoded) string per variable it finds.
    type: STRING,
    optional: v.optional,
    ...(v.description !== undefined ? { doc: { text: v.description } } : {}),
  }));
  declare(acc, variablesTypeName, { kind: "object", props }, path);
  const { variables: _vars, ...descriptor } = t;
  void _vars;
  const variablesOptional = variables.every((v) => v.optional);
  return { uriTemplate: t.uriTemplate, ...names, variables, variablesTypeName, variablesOptional, descriptor };
}

function lowerPrompt(p: ManifestPrompt, path: ManifestPath, acc: Collected): UserPrompt {
  const args = (p.arguments ?? []).map((a) => ({
    name: a.name,
    required: a.required ?? false,
    ...(a.description !== undefined ? { description: a.description } : {}),
    completion: a.completion ?? false,
  }));
  unique(args, [...path, "arguments"], "argument name", (a) => a.name);
  const argumentsTypeName = `${pascalName(p.name)}Arguments`;
  const props: IrProp[] = args.map((a) => ({
    name: a.name,
    type: STRING, // MCP prompt arguments are strings on the wire
    optional: !a.required,
    ...(a.description !== undefined ? { doc: { text: a.description } } : {}),
  }));
  declare(acc, argumentsTypeName, { kind: "object", props }, path);
  const descriptor = {
    ...p,
    ...(p.arguments ? { arguments: p.arguments.map(({ completion: _c, ...rest }) => rest) } : {}),
  };
  const argumentsOptional = args.every((a) => !a.required);
  return { ...namesOf(p.name), arguments: args, argumentsTypeName, argumentsOptional, descriptor };
}

function declare(acc: Collected, name: string, type: IrType, path: ManifestPath): void {
  if (acc.takenNames.has(name))
    throw new SchemaProblem(path, `type name ${name} is generated twice; rename one of the sources`);
  acc.takenNames.add(name);
  acc.types.push({ name, type, extends: [] });
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
