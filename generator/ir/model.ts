/**
 * The intermediate representation (IR) shared by every mcp-gen input and emitter.
 *
 * It is plain, JSON-serialisable data: no ts-morph objects, no file paths of the
 * machine that produced it, no template concerns. Readers (`generator/lower/` for
 * MCP `schema.ts`, `generator/manifest/` for user manifests) produce it; emitters
 * (`generator/emit/`) consume it. `ir.json` in each generated revision is this model.
 */

/** One revision of the MCP protocol schema, lowered. */
export interface IrModel {
  /** The revision name the user gave (`--revision`), e.g. `2025-11-25`. Never read from the schema's constants. */
  readonly revision: string;
  readonly source: IrSource;
  /** Every exported interface and type alias, in source order. */
  readonly types: readonly IrTypeDecl[];
  /** Every JSON-RPC method (request or notification) of the revision, sorted by method string. */
  readonly methods: readonly IrMethod[];
  /** Exported constants (`JSONRPC_VERSION`, error codes, `LATEST_PROTOCOL_VERSION`, …), in source order. */
  readonly constants: readonly IrConst[];
  /** What the runtime needs to know about the revision as a whole, decided from the schema's structure. */
  readonly protocol: IrProtocolFacts;
}

/** Revision-wide protocol facts (`generator/lower/protocol-facts.ts`); never derived from the revision name. */
export interface IrProtocolFacts {
  /**
   * `handshake` when the methods include `initialize`, `stateless` when they include `server/discover`; absent when
   * neither (such bindings type-check but cannot be served, and get no revision descriptor).
   */
  readonly era?: "handshake" | "stateless";
  /** The on-the-wire version: the schema's `LATEST_PROTOCOL_VERSION`, else the revision name (with a warning). */
  readonly version: string;
  /** Where `version` came from. */
  readonly versionSource: "LATEST_PROTOCOL_VERSION" | "revision-name";
  /** JSON-RPC batches exist: the schema's `JSONRPCMessage` union has an array member. */
  readonly batches: boolean;
  /** The declaration of the multi round-trip result (`InputRequiredResult`), when the schema has one. */
  readonly inputRequiredResult?: string;
}

/** Per-request facts about the result, for the runtime (derived from the result type, never from names). */
export interface IrResultFacts {
  /** The complete result declares `resultType`. */
  readonly resultType: boolean;
  /** The complete result declares both `ttlMs` and `cacheScope`. */
  readonly cacheable: boolean;
  /** The result is a union with the revision's input-required result as a member. */
  readonly inputRequired: boolean;
  /** The result without the input-required member; present only when `inputRequired`. */
  readonly complete?: IrType;
}

/** Where a model came from: a display path (relative, stable across machines) and the content hash. */
export interface IrSource {
  readonly path: string;
  readonly sha256: string;
}

/** A location in an input file, for error messages (`file:line`). */
export interface IrLocation {
  readonly file: string;
  readonly line: number;
}

/** The type language of the IR: the subset of TypeScript that MCP's schema.ts and JSON Schema both map onto. */
export type IrType =
  | IrPrimitiveType
  | IrLiteralType
  | IrRefType
  | IrArrayType
  | IrTupleType
  | IrObjectType
  | IrUnionType
  | IrIntersectionType;

/** `unknown` is only ever produced for an explicit `unknown`/`any` (or a JSON Schema `{}`), never as a fallback. */
export interface IrPrimitiveType {
  readonly kind: "primitive";
  readonly name: "string" | "number" | "integer" | "boolean" | "null" | "unknown" | "object";
}

export interface IrLiteralType {
  readonly kind: "literal";
  readonly value: string | number | boolean;
}

/** A reference to another declaration of the same model, by name. */
export interface IrRefType {
  readonly kind: "ref";
  readonly name: string;
}

export interface IrArrayType {
  readonly kind: "array";
  readonly element: IrType;
  readonly constraints?: IrConstraints;
}

export interface IrTupleType {
  readonly kind: "tuple";
  readonly elements: readonly IrType[];
  /** Type of elements past the fixed ones, when the tuple is open. */
  readonly rest?: IrType;
}

export interface IrObjectType {
  readonly kind: "object";
  readonly props: readonly IrProp[];
  /** `[key: string]: T` — additional properties of type T. Absent: open object, extra keys allowed but untyped. */
  readonly index?: IrType;
  /** True when extra keys are rejected (JSON Schema `additionalProperties: false`). Never true for MCP schema types. */
  readonly closed?: boolean;
}

export interface IrUnionType {
  readonly kind: "union";
  readonly items: readonly IrType[];
  /** A property whose literal value tells the members apart, when every member has one (e.g. `type`, `method`). */
  readonly discriminator?: string;
  /**
   * Literal hints of an open literal union (`"a" | "b" | string`): the type is `string`,
   * the literals are documentation only.
   */
  readonly openLiterals?: readonly (string | number)[];
}

export interface IrIntersectionType {
  readonly kind: "intersection";
  readonly items: readonly IrType[];
}

export interface IrProp {
  readonly name: string;
  readonly type: IrType;
  readonly optional: boolean;
  readonly doc?: IrDoc;
  readonly constraints?: IrConstraints;
}

/** Validation facts that the type alone does not carry (from JSDoc tags or JSON Schema keywords). */
export interface IrConstraints {
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** The value may also be `null` (`@nullable`). */
  readonly nullable?: boolean;
}

export interface IrTypeDecl {
  readonly name: string;
  /**
   * How the declaration is written in TypeScript: an `interface` (always an object type) or a type `alias`.
   * Absent: emitters pick `interface` for an open object type, `alias` for everything else.
   */
  readonly form?: "interface" | "alias";
  /** The full, flattened type (inherited props included, child overrides parent). */
  readonly type: IrType;
  /** Declared heritage, kept so the TypeScript emitter can print faithful `extends` clauses. */
  readonly extends: readonly string[];
  readonly doc?: IrDoc;
  readonly category?: string;
  readonly internal: boolean;
  readonly location?: IrLocation;
  /** Validation facts for the whole declaration (e.g. a JSON Schema `{"type":"string","minLength":1}` definition). */
  readonly constraints?: IrConstraints;
}

export type IrMessageDirection = "clientToServer" | "serverToClient" | "both";

/** Reference to a capability flag: `side` capabilities object and the property path in it. */
export interface IrCapabilityGate {
  /** Whose capabilities gate the method: the receiver's (usually) as declared during negotiation. */
  readonly side: "client" | "server";
  readonly path: readonly string[];
}

export interface IrMethod {
  /** The `method` literal, e.g. `tools/call`. */
  readonly method: string;
  readonly kind: "request" | "notification";
  /** The declaration that defines the message (e.g. `CallToolRequest`). */
  readonly typeName: string;
  readonly direction: IrMessageDirection;
  /**
   * How the message travels: `message` is a JSON-RPC message on the wire; `embedded` is a request object that is
   * only ever carried inside another result (2026-07-28 multi round-trip `inputRequests`).
   */
  readonly delivery: "message" | "embedded";
  /** The params type (a ref to `XRequestParams` where the schema names it, else the inline type). */
  readonly params?: IrType;
  readonly paramsOptional: boolean;
  /** Requests only: the result type (may be a union, e.g. `CallToolResult | InputRequiredResult`). */
  readonly result?: IrType;
  /** Requests only: how `result` was found (for review in ir.json). */
  readonly resultSource?: "response-envelope" | "naming" | "pairing-table" | "base-result";
  /** Requests only: facts about the result the runtime acts on. */
  readonly resultFacts?: IrResultFacts;
  readonly capability?: IrCapabilityGate;
  readonly doc?: IrDoc;
}

export interface IrConst {
  readonly name: string;
  readonly value: string | number | boolean;
  readonly doc?: IrDoc;
}

export interface IrDoc {
  /** The JSDoc body text, `{@link}` kept as written. */
  readonly text: string;
  /** Present when `@deprecated`; the reason text (may be empty). */
  readonly deprecated?: string;
  /** Remaining tags worth carrying into generated JSDoc (`@see`, `@example`, …), in source order. */
  readonly tags?: readonly IrDocTag[];
}

export interface IrDocTag {
  readonly name: string;
  readonly text: string;
}
