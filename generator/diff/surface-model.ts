/**
 * What a manifest's generated output offers and depends on (its "surface"), recorded in the output folder's
 * `.mcp-gen.json` at generation time, and the result of comparing two surfaces (`mcp-gen diff --manifest`). Plain
 * JSON data. The recorded side is what the committed output was generated from; the other is what the manifest and
 * the revisions would generate now. The JSON form of `ManifestDiff` is described by manifest-diff.schema.json.
 */
import type { IrTypeDecl } from "../ir/model.ts";
import type { Change, TypeChange } from "./model.ts";

/** Recorded in `.mcp-gen.json` as `surface`; deterministic (sorted, documentation left out). */
export interface ManifestSurface {
  /** `serverInfo` and instructions as served: name, version, title, description, websiteUrl, icons, instructions. */
  readonly server: ServerSurface;
  /** How the generated files import: `runtimeImport` and `importExtension` (every file changes when they do). */
  readonly generation: { readonly runtimeImport: string; readonly importExtension: string };
  /** The capability switches that are on, as paths (`tools`, `tools.listChanged`, `logging`, …), sorted. */
  readonly capabilities: readonly string[];
  readonly tools: readonly ToolSurface[];
  readonly resources: readonly ResourceSurface[];
  readonly resourceTemplates: readonly TemplateSurface[];
  readonly prompts: readonly PromptSurface[];
  /** Every lowered type of the manifest, by name, without documentation. */
  readonly types: readonly IrTypeDecl[];
  /** The revisions the generated server speaks, in the order it lists them. */
  readonly revisions: readonly RevisionSurface[];
}

/**
 * `.mcp-gen.json` `surface`: the surface with what the runtime already knows left out, so that upgrading the runtime
 * rewrites the record only when it changes a generated file. A built-in revision is recorded by name (its facts are
 * the runtime's `ir.json`, read again when `mcp-gen diff` compares); a user's bindings folder with its facts (the
 * folder is theirs and may change); `revisions` is absent when the manifest names none and the server speaks every
 * built-in revision of the runtime it runs with. Records of earlier versions, every revision with its facts, read too.
 */
export type RecordedSurface = Omit<ManifestSurface, "revisions"> & {
  readonly revisions?: readonly (string | RevisionSurface)[];
};

export interface ServerSurface {
  readonly name: string;
  readonly version: string;
  readonly [field: string]: unknown;
}

/** What is served about an entry besides its types (title, description, annotations, icons, mimeType, …). */
export type Descriptor = Readonly<Record<string, unknown>>;

export interface ToolSurface {
  readonly name: string;
  /** The input type's declaration name. */
  readonly input: string;
  /** The output type's declaration name; absent when the tool has no outputSchema (content results). */
  readonly output?: string;
  readonly scopes: readonly string[];
  readonly descriptor: Descriptor;
}

export interface ResourceSurface {
  readonly uri: string;
  readonly descriptor: Descriptor;
}

export interface TemplateSurface {
  readonly name: string;
  readonly uriTemplate: string;
  /** The variables type's declaration name. */
  readonly variables: string;
  /** Variables with a completion handler. */
  readonly completions: readonly string[];
  readonly descriptor: Descriptor;
}

export interface PromptSurface {
  readonly name: string;
  /** The arguments type's declaration name. */
  readonly arguments: string;
  readonly completions: readonly string[];
  readonly descriptor: Descriptor;
}

/** One revision the server speaks, as far as a server meets it. */
export interface RevisionSurface {
  /** The revision's name (`--revision` when generated). */
  readonly name: string;
  /** For a `{ bindings: <folder> }` revision: the folder, as the manifest writes it. Absent for a built-in. */
  readonly bindings?: string;
  readonly version: string;
  readonly era?: "handshake" | "stateless";
  readonly batches: boolean;
  /** The input hash of its schema (ir.json `source.sha256`). */
  readonly schema: string;
  /**
   * Per method, one line of space-separated facts (see `encodeMethod` in surface.ts): kind, direction, delivery,
   * capability gate, params and result as `Name@digest` (the digest covers the whole structure reached), facts.
   */
  readonly methods: Readonly<Record<string, string>>;
}

/** A removed/added entry: its name and handler, as one line of TypeScript-like text. */
export interface EntrySummary {
  readonly name: string;
  readonly handler: string;
}

export interface EntryChange {
  readonly name: string;
  /** True when the handler's parameters or result type change (not only what is served about the entry). */
  readonly signature: boolean;
  readonly changes: readonly Change[];
}

export interface EntriesDiff {
  readonly added: readonly EntrySummary[];
  readonly removed: readonly EntrySummary[];
  readonly changed: readonly EntryChange[];
}

/** A method as the surface records it, decoded. */
export interface MethodFacts {
  readonly method: string;
  readonly kind: string;
  readonly direction: string;
  readonly delivery: string;
  /** `side:path`, or null when ungated. */
  readonly capability: string | null;
  readonly params: string | null;
  readonly result: string | null;
  readonly facts: readonly string[];
  /** False when a server capability this server does not declare gates it (the server never meets it). */
  readonly served: boolean;
}

export interface MethodFactsChange {
  readonly method: string;
  readonly served: boolean;
  readonly changes: readonly Change[];
}

export interface MethodsDiff {
  readonly added: readonly MethodFacts[];
  readonly removed: readonly MethodFacts[];
  readonly changed: readonly MethodFactsChange[];
}

export interface RevisionBrief {
  readonly name: string;
  readonly bindings: string | null;
  readonly version: string;
  readonly era: "handshake" | "stateless" | null;
  readonly batches: boolean;
  readonly methods: number;
}

export interface RevisionUpdate {
  readonly name: string;
  /**
   * The revision served before that this one is compared with: itself, or for an added revision the newest one
   * (highest version) served before; null when none was.
   */
  readonly comparedWith: string | null;
  /** Changes to bindings folder, version, era and batches. */
  readonly revision: readonly Change[];
  /** True when the schema changed (even where no method a server meets did). */
  readonly schemaChanged: boolean;
  readonly methods: MethodsDiff;
}

export interface ManifestDiff {
  /** The manifest (as given) each side comes from; `from` may be the output folder's record instead. */
  readonly from: DiffOrigin;
  readonly to: DiffOrigin;
  /** True when nothing below changed (documentation is not compared). */
  readonly unchanged: boolean;
  /** Changes to what the server says about itself (name, version, title, description, instructions, …). */
  readonly server: readonly Change[];
  /** Changes to `runtimeImport` and `importExtension`: every generated file changes, no handler does. */
  readonly generation: readonly Change[];
  /** One row per capability switch turned on (`to: true`) or off. */
  readonly capabilities: readonly Change[];
  readonly tools: EntriesDiff;
  readonly resources: EntriesDiff;
  readonly resourceTemplates: EntriesDiff;
  readonly prompts: EntriesDiff;
  /** Types not already shown under an entry (`$defs`). */
  readonly types: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly TypeChange[];
  };
  readonly revisions: {
    readonly added: readonly RevisionBrief[];
    readonly removed: readonly RevisionBrief[];
    /** One per added revision (against the newest one served before) and per revision whose schema changed. */
    readonly updated: readonly RevisionUpdate[];
  };
}

export interface DiffOrigin {
  /** `record`: the output folder's `.mcp-gen.json`; `manifest`: the manifest lowered now. */
  readonly kind: "record" | "manifest";
  /** The record or manifest file, as shown to the user. */
  readonly path: string;
  /** The manifest's sha256 (recorded, or of its bytes now). */
  readonly sha256: string;
}
