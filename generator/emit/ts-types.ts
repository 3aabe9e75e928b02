/**
 * IR types → TypeScript source text. Pure functions, no formatting concerns (prettier runs later), reused by the
 * protocol emitter and the manifest emitter.
 */
import type { IrConstraints, IrDoc, IrObjectType, IrProp, IrType, IrTypeDecl } from "../ir/model.ts";
// Reserved words are fine bare as keys and after a `.` (ES5+), so one identifier rule serves both.
import { IDENTIFIER } from "../ir/validate.ts";

export interface TypeEmitOptions {
  /** How a `ref` is printed (default: the bare name, e.g. to qualify it as `T.Name`). */
  readonly ref?: (name: string) => string;
}

/**
 * A property key as written in an object type or object literal: bare when it is an identifier, quoted otherwise.
 * `__proto__` is computed (`["__proto__"]`): in an object literal, bare or quoted, it would set the prototype.
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `base.key` when `key` is an identifier name, else `base["key"]`. */
export function memberAccess(base: string, key: string): string {
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** A JSDoc block (with trailing newline), or "" when there is nothing to say. */
export function emitDoc(doc: IrDoc | undefined, extraLines: readonly string[] = []): string {
  const lines: string[] = [];
  if (doc?.text) lines.push(...doc.text.split("\n"));
  const tags = [...(doc?.tags ?? []).map((t) => `@${t.name}${t.text ? ` ${t.text}` : ""}`)];
  if (doc?.deprecated !== undefined) tags.push(`@deprecated${doc.deprecated ? ` ${doc.deprecated}` : ""}`);
  tags.push(...extraLines);
  if (tags.length > 0 && lines.length > 0) lines.push("");
  for (const tag of tags) lines.push(...tag.split("\n"));
  if (lines.length === 0) return "";
  const safe = lines.map((line) => line.replace(/\*\//g, "*\\/"));
  if (safe.length === 1) return `/** ${safe[0]} */\n`;
  return `/**\n${safe.map((line) => (line ? ` * ${line}` : " *")).join("\n")}\n */\n`;
}

/** A JSDoc block for a plain description (e.g. a manifest's `description`), or "" when there is none. */
export function emitDescription(text: unknown): string {
  return typeof text === "string" && text ? emitDoc({ text }) : "";
}

export function emitTypeExpression(type: IrType, options: TypeEmitOptions = {}): string {
  const ref = options.ref ?? ((name: string) => name);
  const expr = (t: IrType): string => emitTypeExpression(t, options);
  switch (type.kind) {
    case "primitive":
      return type.name === "integer" ? "number" : type.name;
    case "literal":
      return JSON.stringify(type.value);
    case "ref":
      return ref(type.name);
    case "array":
      return `${wrap(type.element, expr(type.element))}[]`;
    case "tuple": {
      const items = type.elements.map(expr);
      if (type.rest) items.push(`...${wrap(type.rest, expr(type.rest))}[]`);
      return `[${items.join(", ")}]`;
    }
    case "object":
      return emitObjectType(type, options);
    case "union": {
      const literals = (type.openLiterals ?? []).map((v) => JSON.stringify(v));
      const items = [...literals, ...type.items.map(expr)];
      return items.length === 0 ? "never" : items.join(" | ");
    }
    case "intersection":
      return type.items.map((t) => (t.kind === "union" ? `(${expr(t)})` : expr(t))).join(" & ");
  }
}

/** Parenthesize unions/intersections used as array elements. */
function wrap(type: IrType, text: string): string {
  return type.kind === "union" || type.kind === "intersection" ? `(${text})` : text;
}

function emitObjectType(type: IrObjectType, options: TypeEmitOptions = {}): string {
  const members = objectMembers(type, options);
  return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n}`;
}

function objectMembers(type: IrObjectType, options: TypeEmitOptions): string[] {
  const members = type.props.map((p) => emitProperty(p, options));
  if (type.index) members.push(`[key: string]: ${emitTypeExpression(type.index, options)};`);
  return members;
}

/** Whether values of `type` include `null` already. */
export function acceptsNull(type: IrType): boolean {
  if (type.kind === "primitive") return type.name === "null" || type.name === "unknown";
  return type.kind === "union" && type.items.some(acceptsNull);
}

/** A `nullable` constraint (`@nullable`) on a type without `null` adds `| null`, as the validator does. */
function addsNull(type: IrType, constraints: IrConstraints | undefined): boolean {
  return constraints?.nullable === true && !acceptsNull(type);
}

function emitProperty(prop: IrProp, options: TypeEmitOptions): string {
  const optional = prop.optional ? "?" : "";
  const text = emitTypeExpression(prop.type, options);
  const type = addsNull(prop.type, prop.constraints) ? `${wrap(prop.type, text)} | null` : text;
  return `${emitDoc(prop.doc)}${propertyKey(prop.name)}${optional}: ${type};`;
}

/**
 * `export interface X { … }` for object declarations, `export type X = …;` for the rest. Interfaces are printed
 * flattened (every inherited property written out, no `extends`): the spec overrides inherited properties with types
 * that are only compatible through its `any`s, and a flat interface reads on its own.
 */
export function emitTypeDeclaration(decl: IrTypeDecl, options: TypeEmitOptions = {}): string {
  const nullable = addsNull(decl.type, decl.constraints);
  const form = decl.form ?? (decl.type.kind === "object" && !decl.type.closed ? "interface" : "alias");
  const doc = emitDoc(decl.doc);
  if (form === "interface" && decl.type.kind === "object" && !nullable) {
    const members = objectMembers(decl.type, options);
    return `${doc}export interface ${decl.name} {${members.length ? `\n${members.join("\n")}\n` : ""}}\n`;
  }
  const text = emitTypeExpression(decl.type, options);
  return `${doc}export type ${decl.name} = ${nullable ? `${wrap(decl.type, text)} | null` : text};\n`;
}
