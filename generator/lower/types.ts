/**
 * TypeScript type syntax → `IrType`. Works on the syntax tree only (no type checker): MCP's schema.ts uses a small,
 * known subset of TypeScript, and anything outside it is an error with its `file:line`, never a silent `unknown`.
 */
import { Node, SyntaxKind, type TypeNode } from "ts-morph";
import type { IrLocation, IrProp, IrType } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import { lowerJsDoc } from "./jsdoc.ts";

/** What type lowering needs to know about the rest of the file. */
export interface TypeContext {
  /** Display path of the input, for locations. */
  readonly file: string;
  /** Names of the exported interfaces and type aliases. */
  readonly declarations: ReadonlySet<string>;
  /** Exported constants with literal values, for `typeof CONST`. */
  readonly constants: ReadonlyMap<string, string | number | boolean>;
}

export function locationOf(node: Node, ctx: TypeContext): IrLocation {
  return { file: ctx.file, line: node.getStartLineNumber() };
}

function unsupported(node: Node, ctx: TypeContext, what: string): never {
  throw new GeneratorError(`unsupported ${what}: \`${node.getText()}\``, locationOf(node, ctx));
}

export function lowerTypeNode(node: TypeNode, ctx: TypeContext): IrType {
  if (Node.isParenthesizedTypeNode(node)) return lowerTypeNode(node.getTypeNode(), ctx);
  switch (node.getKind()) {
    case SyntaxKind.StringKeyword:
      return { kind: "primitive", name: "string" };
    case SyntaxKind.NumberKeyword:
      return { kind: "primitive", name: "number" };
    case SyntaxKind.BooleanKeyword:
      return { kind: "primitive", name: "boolean" };
    case SyntaxKind.UnknownKeyword:
    case SyntaxKind.AnyKeyword:
      return { kind: "primitive", name: "unknown" };
    case SyntaxKind.ObjectKeyword:
      return { kind: "primitive", name: "object" };
    case SyntaxKind.NullKeyword:
      return { kind: "primitive", name: "null" };
    case SyntaxKind.NeverKeyword:
      // The union of nothing: no value fits (an optional `never` property must be absent).
      return { kind: "union", items: [] };
  }
  if (Node.isLiteralTypeNode(node)) return lowerLiteral(node, ctx);
  if (Node.isTypeQuery(node)) {
    const name = node.getExprName().getText();
    const value = ctx.constants.get(name);
    if (value === undefined) unsupported(node, ctx, "`typeof` of something that is not an exported literal constant");
    return { kind: "literal", value };
  }
  if (Node.isArrayTypeNode(node)) return { kind: "array", element: lowerTypeNode(node.getElementTypeNode(), ctx) };
  if (Node.isTupleTypeNode(node)) return lowerTuple(node, ctx);
  if (Node.isUnionTypeNode(node)) return lowerUnion(node.getTypeNodes(), ctx);
  if (Node.isIntersectionTypeNode(node)) {
    return { kind: "intersection", items: node.getTypeNodes().map((t) => lowerTypeNode(t, ctx)) };
  }
  if (Node.isTypeLiteral(node)) return lowerMembers(node, ctx);
  if (Node.isTypeReference(node)) return lowerReference(node, ctx);
  return unsupported(node, ctx, "type construct");
}

function lowerLiteral(node: Node, ctx: TypeContext): IrType {
  const literal = (node as import("ts-morph").LiteralTypeNode).getLiteral();
  if (Node.isStringLiteral(literal)) return { kind: "literal", value: literal.getLiteralValue() };
  if (Node.isNumericLiteral(literal)) return { kind: "literal", value: literal.getLiteralValue() };
  if (Node.isTrueLiteral(literal)) return { kind: "literal", value: true };
  if (Node.isFalseLiteral(literal)) return { kind: "literal", value: false };
  if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "primitive", name: "null" };
  if (Node.isPrefixUnaryExpression(literal) && literal.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = literal.getOperand();
    if (Node.isNumericLiteral(operand)) return { kind: "literal", value: -operand.getLiteralValue() };
  }
  return unsupported(node, ctx, "literal type");
}

function lowerTuple(node: import("ts-morph").TupleTypeNode, ctx: TypeContext): IrType {
  const elements: IrType[] = [];
  let rest: IrType | undefined;
  for (const element of node.getElements()) {
    if (Node.isRestTypeNode(element)) {
      const inner = element.getTypeNode();
      if (!Node.isArrayTypeNode(inner)) unsupported(element, ctx, "tuple rest element");
      rest = lowerTypeNode(inner.getElementTypeNode(), ctx);
    } else if (Node.isNamedTupleMember(element) || Node.isOptionalTypeNode(element)) {
      unsupported(element, ctx, "named or optional tuple element");
    } else {
      elements.push(lowerTypeNode(element, ctx));
    }
  }
  return { kind: "tuple", elements, ...(rest ? { rest } : {}) };
}

/** `"a" | "b" | string` is an open literal union: its type is `string`, the literals are kept as hints. */
function lowerUnion(nodes: readonly TypeNode[], ctx: TypeContext): IrType {
  const items = nodes.map((t) => lowerTypeNode(t, ctx));
  const hasString = items.some((t) => t.kind === "primitive" && t.name === "string");
  const stringLiterals = items.filter((t) => t.kind === "literal" && typeof t.value === "string");
  if (hasString && stringLiterals.length > 0) {
    const rest = items.filter((t) => !(t.kind === "literal" && typeof t.value === "string"));
    const openLiterals = stringLiterals.map((t) => (t.kind === "literal" ? (t.value as string) : ""));
    return { kind: "union", items: rest, openLiterals };
  }
  return { kind: "union", items };
}

function lowerReference(node: import("ts-morph").TypeReferenceNode, ctx: TypeContext): IrType {
  const name = node.getTypeName().getText();
  const args = node.getTypeArguments();
  if (args.length === 0) {
    if (ctx.declarations.has(name)) return { kind: "ref", name };
    return unsupported(node, ctx, "reference to a type that is not declared in this file");
  }
  if (name === "Array" && args.length === 1) return { kind: "array", element: lowerTypeNode(args[0]!, ctx) };
  if (name === "Record" && args.length === 2 && args[0]!.getKind() === SyntaxKind.StringKeyword) {
    return { kind: "object", props: [], index: lowerTypeNode(args[1]!, ctx) };
  }
  if (name === "Record" && args.length === 2) {
    const keys = literalKeys(args[0]!, ctx);
    if (keys) return keyedRecord(keys, args[1]!, ctx);
  }
  return unsupported(node, ctx, "generic type");
}

/** The string literals a `Record` key names: a literal union, written in place or as an alias of this file. */
function literalKeys(node: TypeNode, ctx: TypeContext): string[] | undefined {
  let keyNode: TypeNode | undefined = node;
  if (Node.isTypeReference(node) && node.getTypeArguments().length === 0)
    keyNode = node.getSourceFile().getTypeAlias(node.getTypeName().getText())?.getTypeNode();
  if (!keyNode) return undefined;
  const key = lowerTypeNode(keyNode, ctx);
  const items = key.kind === "union" ? key.items : [key];
  if (key.kind === "union" && key.openLiterals) return undefined;
  const names = items.flatMap((t) => (t.kind === "literal" && typeof t.value === "string" ? [t.value] : []));
  return names.length === items.length ? names : undefined;
}

/**
 * `Record<"a" | "b", V>`: an object with a property per key; `V | undefined` makes them optional (absent is how JSON
 * says undefined).
 */
function keyedRecord(keys: readonly string[], valueNode: TypeNode, ctx: TypeContext): IrType {
  const parts = Node.isUnionTypeNode(valueNode) ? valueNode.getTypeNodes() : [valueNode];
  const defined = parts.filter((t) => t.getKind() !== SyntaxKind.UndefinedKeyword);
  const optional = defined.length < parts.length;
  const type = defined.length === 1 ? lowerTypeNode(defined[0]!, ctx) : lowerUnion(defined, ctx);
  return { kind: "object", props: keys.map((name) => ({ name, type, optional })) };
}

/** Members of a type literal or interface body: property signatures and at most one string index signature. */
export function lowerMembers(node: Node, ctx: TypeContext): IrType & { kind: "object" } {
  const props: IrProp[] = [];
  let index: IrType | undefined;
  const members = Node.isTypeLiteral(node) || Node.isInterfaceDeclaration(node) ? node.getMembers() : [];
  for (const member of members) {
    if (Node.isPropertySignature(member)) {
      props.push(lowerProperty(member, ctx));
    } else if (Node.isIndexSignatureDeclaration(member)) {
      if (index) unsupported(member, ctx, "second index signature");
      if (member.getKeyTypeNode().getKind() !== SyntaxKind.StringKeyword) {
        unsupported(member, ctx, "index signature with a non-string key");
      }
      index = lowerTypeNode(member.getReturnTypeNodeOrThrow(), ctx);
    } else {
      unsupported(member, ctx, "member kind");
    }
  }
  return { kind: "object", props, ...(index ? { index } : {}) };
}

function lowerProperty(member: import("ts-morph").PropertySignature, ctx: TypeContext): IrProp {
  const location = locationOf(member, ctx);
  const nameNode = member.getNameNode();
  let name: string;
  if (Node.isIdentifier(nameNode)) name = nameNode.getText();
  else if (Node.isStringLiteral(nameNode)) name = nameNode.getLiteralValue();
  else return unsupported(member, ctx, "property name");
  const typeNode = member.getTypeNode();
  if (!typeNode) return unsupported(member, ctx, "property without a type");
  if (member.isReadonly()) unsupported(member, ctx, "readonly property");
  const { doc, constraints, tjsType } = lowerJsDoc(member, location);
  const optional = member.hasQuestionToken();
  return {
    name,
    type: applyTjsType(lowerOptionalType(typeNode, optional, ctx), tjsType, location),
    optional,
    ...(doc ? { doc } : {}),
    ...(constraints ? { constraints } : {}),
  };
}

/** An optional property's `T | undefined` (a declaration file's way of writing it) is `T`: JSON says undefined by absence. */
function lowerOptionalType(typeNode: TypeNode, optional: boolean, ctx: TypeContext): IrType {
  if (!optional || !Node.isUnionTypeNode(typeNode)) return lowerTypeNode(typeNode, ctx);
  const defined = typeNode.getTypeNodes().filter((t) => t.getKind() !== SyntaxKind.UndefinedKeyword);
  if (defined.length === typeNode.getTypeNodes().length) return lowerTypeNode(typeNode, ctx);
  return defined.length === 1 ? lowerTypeNode(defined[0]!, ctx) : lowerUnion(defined, ctx);
}

/**
 * `@TJS-type` refines a TypeScript `number`: `integer` makes it an integer, `number` confirms it. The TypeScript type
 * stays the source of truth otherwise, so any other combination is an error rather than a silent override.
 */
function applyTjsType(type: IrType, tjsType: string | undefined, location: IrLocation): IrType {
  if (tjsType === undefined) return type;
  const isNumber = (t: IrType) => t.kind === "primitive" && t.name === "number";
  const retype = (t: IrType): IrType =>
    isNumber(t) ? { kind: "primitive", name: tjsType === "integer" ? "integer" : "number" } : t;
  if (
    (tjsType === "integer" || tjsType === "number") &&
    (isNumber(type) || (type.kind === "union" && type.items.some(isNumber)))
  ) {
    return type.kind === "union" ? { ...type, items: type.items.map(retype) } : retype(type);
  }
  throw new GeneratorError(`@TJS-type ${tjsType} does not fit this property's TypeScript type`, location);
}
