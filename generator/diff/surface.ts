/**
 * A lowered manifest and its revisions' IRs → the `ManifestSurface` recorded in `.mcp-gen.json` (pure), and the
 * one-line method encoding it uses (`encodeMethod` / `decodeMethod`). The lowered manifest is taken by its shape
 * (`SurfaceSource`, which the manifest stage's `UserModel` satisfies), so this stage does not import that one.
 */
import type { IrMethod, IrModel, IrType, IrTypeDecl } from "../ir/model.ts";
import { typeDigests, type TypeDigest } from "./digest.ts";
import type { Descriptor, ManifestSurface, MethodFacts, RecordedSurface, RevisionSurface } from "./surface-model.ts";

interface Completable {
  readonly name: string;
  readonly completion: boolean;
}

/** What the surface reads from a lowered manifest (`UserModel`). */
export interface SurfaceSource {
  readonly server: {
    readonly name: string;
    readonly version: string;
    readonly title?: string;
    readonly description?: string;
    readonly websiteUrl?: string;
    readonly instructions?: string;
    readonly icons?: readonly unknown[];
  };
  readonly runtimeImport: string;
  readonly importExtension: string;
  /** Resolved capability switches: objects for declared kinds, booleans for switches. */
  readonly capabilities: object;
  readonly types: readonly IrTypeDecl[];
  readonly tools: readonly {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly annotations?: Descriptor;
    readonly icons?: readonly unknown[];
    readonly input: { readonly typeName: string };
    readonly output?: { readonly typeName: string };
    readonly scopes: readonly string[];
  }[];
  readonly resources: readonly { readonly uri: string; readonly descriptor: Descriptor }[];
  readonly resourceTemplates: readonly {
    readonly name: string;
    readonly uriTemplate: string;
    readonly variablesTypeName: string;
    readonly variables: readonly Completable[];
    readonly descriptor: Descriptor;
  }[];
  readonly prompts: readonly {
    readonly name: string;
    readonly argumentsTypeName: string;
    readonly arguments: readonly Completable[];
    readonly descriptor: Descriptor;
  }[];
}

/** A revision the server speaks, with its IR; `bindings` is the manifest's folder for a `{ bindings }` revision. */
export interface SurfaceRevision {
  readonly model: IrModel;
  readonly bindings?: string;
}

export function manifestSurface(source: SurfaceSource, revisions: readonly SurfaceRevision[]): ManifestSurface {
  const completions = (items: readonly Completable[]) => items.filter((i) => i.completion).map((i) => i.name);
  return {
    server: {
      ...withoutUndefined({
        title: source.server.title,
        description: source.server.description,
        websiteUrl: source.server.websiteUrl,
        instructions: source.server.instructions,
        icons: source.server.icons,
      }),
      name: source.server.name,
      version: source.server.version,
    },
    generation: { runtimeImport: source.runtimeImport, importExtension: source.importExtension },
    capabilities: switchesOn(source.capabilities),
    tools: source.tools.map((t) => ({
      name: t.name,
      input: t.input.typeName,
      ...(t.output ? { output: t.output.typeName } : {}),
      scopes: [...t.scopes],
      descriptor: withoutUndefined({
        title: t.title,
        description: t.description,
        annotations: t.annotations,
        icons: t.icons,
      }),
    })),
    resources: source.resources.map((r) => ({ uri: r.uri, descriptor: r.descriptor })),
    resourceTemplates: source.resourceTemplates.map((t) => ({
      name: t.name,
      uriTemplate: t.uriTemplate,
      variables: t.variablesTypeName,
      completions: completions(t.variables),
      descriptor: t.descriptor,
    })),
    prompts: source.prompts.map((p) => ({
      name: p.name,
      arguments: p.argumentsTypeName,
      completions: completions(p.arguments),
      descriptor: p.descriptor,
    })),
    types: [...source.types].sort((a, b) => compare(a.name, b.name)).map(withoutDocs),
    revisions: revisions.map(revisionSurface),
  };
}

export function revisionSurface({ model, bindings }: SurfaceRevision): RevisionSurface {
  const { version, era, batches } = model.protocol;
  const digest = typeDigests(model.types);
  const methods = Object.fromEntries(
    [...model.methods].sort((a, b) => compare(a.method, b.method)).map((m) => [m.method, encodeMethod(m, digest)]),
  );
  return {
    name: model.revision,
    ...(bindings !== undefined ? { bindings } : {}),
    version,
    ...(era ? { era } : {}),
    batches,
    schema: model.source.sha256,
    methods,
  };
}

/**
 * The surface as the record keeps it (`RecordedSurface`), no built-in IR read: the manifest's revisions in its order,
 * a built-in one by name, a user's bindings with its IR; `revisions` undefined when the manifest names none.
 */
export function recordedSurface(
  source: SurfaceSource,
  revisions: readonly (string | SurfaceRevision)[] | undefined,
): RecordedSurface {
  const { revisions: _none, ...rest } = manifestSurface(source, []);
  if (revisions === undefined) return rest;
  return { ...rest, revisions: revisions.map((r) => (typeof r === "string" ? r : revisionSurface(r))) };
}

/** A built-in revision's surface from the runtime at hand, and every built-in revision it has. */
export interface BuiltinSurfaces {
  readonly names: readonly string[];
  readonly revision: (name: string) => RevisionSurface | undefined;
}

/**
 * A recorded surface with its built-in revisions read from the runtime at hand (`builtin`): what `mcp-gen diff`
 * compares. A built-in revision this runtime does not have keeps its name only (no version, no methods).
 */
export function surfaceFromRecord(recorded: RecordedSurface, builtin: BuiltinSurfaces): ManifestSurface {
  const { revisions = builtin.names, ...rest } = recorded;
  const resolve = (r: string | RevisionSurface): RevisionSurface =>
    typeof r !== "string"
      ? r
      : (builtin.revision(r) ?? { name: r, version: "", batches: false, schema: "", methods: {} });
  return { ...rest, revisions: revisions.map(resolve) };
}

/** Capability switch paths that are on: a declared kind (an object) and every `true` inside it. */
function switchesOn(capabilities: object, prefix = ""): string[] {
  const on: string[] = [];
  for (const [key, value] of Object.entries(capabilities)) {
    const name = `${prefix}${key}`;
    if (value === true) on.push(name);
    else if (typeof value === "object" && value !== null) on.push(name, ...switchesOn(value, `${name}.`));
  }
  return on.sort();
}

/**
 * `request clientToServer message gate=server:tools params=CallToolRequestParams@… result=CallToolResult@…
 * facts=resultType`: no token holds a space, so the line splits back on spaces.
 */
export function encodeMethod(m: IrMethod, digest: TypeDigest): string {
  const tokens: string[] = [m.kind, m.direction, m.delivery];
  if (m.capability) tokens.push(`gate=${m.capability.side}:${m.capability.path.join(".")}`);
  if (m.params) tokens.push(`params${m.paramsOptional ? "?" : ""}=${typeLabel(m.params, digest)}`);
  if (m.result) tokens.push(`result=${typeLabel(m.result, digest)}`);
  const facts = m.resultFacts
    ? (["cacheable", "inputRequired", "resultType"] as const).filter((f) => m.resultFacts![f])
    : [];
  if (facts.length > 0) tokens.push(`facts=${facts.join(",")}`);
  return tokens.join(" ");
}

/** A recorded method line back to its facts, plus the `Name@digest` labels of params and result for comparing. */
export interface DecodedMethod {
  readonly facts: MethodFacts;
  readonly paramsLabel: string | null;
  readonly resultLabel: string | null;
}

/** `served` is decided by the capability switches the server has on (`switches`). */
export function decodeMethod(method: string, line: string, switches: ReadonlySet<string>): DecodedMethod {
  const [kind = "", direction = "", delivery = "", ...rest] = line.split(" ");
  const value = (key: string) => {
    const token = rest.find((t) => t.startsWith(`${key}=`));
    return token === undefined ? null : token.slice(key.length + 1);
  };
  const optionalParams = value("params?");
  const paramsLabel = value("params") ?? optionalParams;
  const resultLabel = value("result");
  const name = (label: string | null) => (label === null ? null : label.replace(/@[0-9a-f]*$/, ""));
  const capability = value("gate");
  const [side, path] = capability?.split(":") ?? [];
  const params = name(paramsLabel);
  return {
    facts: {
      method,
      kind,
      direction,
      delivery,
      capability,
      params: params !== null && optionalParams !== null ? `${params} (optional)` : params,
      result: name(resultLabel),
      facts: value("facts")?.split(",") ?? [],
      served: side !== "server" || path === undefined || switches.has(path),
    },
    paramsLabel,
    resultLabel,
  };
}

/**
 * `Name@digest` for a reference (`A|B@digest` for a union of references, `inline@digest` otherwise). The digest
 * covers the whole structure reached through references, without documentation, so a change anywhere below shows.
 */
function typeLabel(type: IrType, digest: TypeDigest): string {
  const name =
    type.kind === "ref"
      ? type.name
      : type.kind === "union" && type.items.every((i) => i.kind === "ref")
        ? type.items.map((i) => (i.kind === "ref" ? i.name : "")).join("|")
        : "inline";
  return `${name}@${digest(type)}`;
}

/** The declaration without documentation or location, keys sorted (as the record stores it, so both sides match). */
function withoutDocs(decl: IrTypeDecl): IrTypeDecl {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value).filter(([key]) => key !== "doc" && key !== "location");
    return Object.fromEntries(entries.sort(([a], [b]) => compare(a, b)).map(([k, v]) => [k, strip(v)]));
  };
  return strip(decl) as IrTypeDecl;
}

function withoutUndefined(record: Record<string, unknown>): Descriptor {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
