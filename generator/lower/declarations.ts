/**
 * schema.ts statements → IR declarations and constants. Interfaces are flattened (inherited properties included,
 * child overrides parent, `Omit<Base, "k">` heritage resolved), so every consumer sees the full shape; the plain-name
 * heritage is kept in `extends` for faithful TypeScript output.
 */
import {
  Node,
  SyntaxKind,
  type ExpressionWithTypeArguments,
  type InterfaceDeclaration,
  type SourceFile,
  type VariableDeclaration,
} from "ts-morph";
import type { IrConst, IrObjectType, IrProp, IrType, IrTypeDecl } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import { lowerJsDoc } from "./jsdoc.ts";
import { locationOf, lowerMembers, lowerTypeNode, type TypeContext } from "./types.ts";

export interface LoweredDeclarations {
  readonly types: IrTypeDecl[];
  readonly constants: IrConst[];
  /** Declarations that do not fit what they extend (`file:line: …`), each handled as its message says. */
  readonly irregular: string[];
}

/**
 * `imported`: declarations of imported modules under the names this file uses (see `imports.ts`); references to them
 * resolve, and interfaces may extend them.
 */
export function lowerDeclarations(
  source: SourceFile,
  file: string,
  imported: readonly IrTypeDecl[] = [],
): LoweredDeclarations {
  const constants = lowerConstants(source, file);
  const interfaces = new Map<string, InterfaceDeclaration[]>();
  const declarations = new Set<string>(imported.map((t) => t.name));
  for (const statement of source.getStatements()) {
    const name =
      Node.isInterfaceDeclaration(statement) || Node.isTypeAliasDeclaration(statement)
        ? statement.getName()
        : undefined;
    if (name === undefined) continue;
    const merged = interfaces.get(name);
    // Interfaces merge (as in TypeScript); any other repeated name is a duplicate, which tsc rejects too.
    if (merged && Node.isInterfaceDeclaration(statement)) merged.push(statement);
    else if (imported.some((t) => t.name === name)) {
      throw new GeneratorError(`${name} is declared here and imported (or needed by an import)`, {
        file,
        line: statement.getStartLineNumber(),
      });
    } else if (declarations.has(name)) {
      const what = Node.isTypeAliasDeclaration(statement) ? "type alias" : "declaration";
      throw new GeneratorError(`duplicate ${what} ${name}`, { file, line: statement.getStartLineNumber() });
    } else if (Node.isInterfaceDeclaration(statement)) interfaces.set(name, [statement]);
    declarations.add(name);
  }
  const ctx: TypeContext = { file, declarations, constants: new Map(constants.map((c) => [c.name, c.value])) };
  const importedObjects = new Map(
    imported.flatMap((t) => (t.type.kind === "object" ? [[t.name, t.type] as const] : [])),
  );
  const importedRefs = new Map(imported.flatMap((t) => (t.type.kind === "ref" ? [[t.name, t.type] as const] : [])));
  const flattener = new Flattener(ctx, interfaces, importedObjects, importedRefs);
  const types: IrTypeDecl[] = [];
  for (const statement of source.getStatements()) {
    const location = { file, line: statement.getStartLineNumber() };
    if (Node.isVariableStatement(statement)) continue; // handled by lowerConstants
    if (Node.isEmptyStatement(statement)) continue; // a stray `;`
    if (Node.isImportDeclaration(statement)) continue; // followed by imports.ts
    if (!Node.isInterfaceDeclaration(statement) && !Node.isTypeAliasDeclaration(statement)) {
      throw new GeneratorError(`unsupported top-level statement (${statement.getKindName()})`, location);
    }
    if (!statement.isExported()) throw new GeneratorError("declaration is not exported", location);
    if (statement.getTypeParameters().length > 0)
      throw new GeneratorError("type parameters are not supported", location);
    const { doc } = lowerJsDoc(statement, location);
    const common = {
      name: statement.getName(),
      ...(doc ? { doc } : {}),
      location,
    };
    if (Node.isInterfaceDeclaration(statement)) {
      const parts = interfaces.get(statement.getName())!;
      // A merged interface is lowered once, at its first declaration, from all of its parts.
      if (parts[0] !== statement) continue;
      const heritage = parts.flatMap((part) => part.getExtends()).filter((h) => h.getTypeArguments().length === 0);
      const docPart = parts.find((part) => part.getJsDocs().length > 0);
      const merged = docPart && docPart !== statement ? lowerJsDoc(docPart, locationOf(docPart, ctx)) : undefined;
      types.push({
        ...common,
        ...(merged?.doc ? { doc: merged.doc } : {}),
        form: "interface",
        type: flattener.flatten(statement.getName()),
        extends: [...new Set(heritage.map((h) => h.getExpression().getText()))],
      });
    } else {
      types.push({ ...common, form: "alias", type: lowerTypeNode(statement.getTypeNodeOrThrow(), ctx), extends: [] });
    }
  }
  return { types, constants, irregular: flattener.irregular };
}

function lowerConstants(source: SourceFile, file: string): IrConst[] {
  const constants: IrConst[] = [];
  for (const statement of source.getVariableStatements()) {
    const location = { file, line: statement.getStartLineNumber() };
    if (!statement.isExported()) throw new GeneratorError("constant is not exported", location);
    const { doc } = lowerJsDoc(statement, location);
    for (const declaration of statement.getDeclarations()) {
      const value = literalValue(declaration.getInitializer()) ?? declaredLiteral(declaration);
      if (value === undefined || (declaration.getInitializer() !== undefined && declaration.getTypeNode())) {
        throw new GeneratorError(
          `constant ${declaration.getName()} must be initialised with a plain literal`,
          location,
        );
      }
      constants.push({ name: declaration.getName(), value, ...(doc ? { doc } : {}) });
    }
  }
  return constants;
}

/**
 * A declaration file's constant (`export declare const OPEN_LINK_METHOD: McpUiOpenLinkRequest["method"]`): no
 * initializer, a type naming one literal, which is its value. Asks the type checker, so only such constants pay for one.
 */
function declaredLiteral(declaration: VariableDeclaration): string | number | boolean | undefined {
  if (declaration.getInitializer() !== undefined || !declaration.getTypeNode()) return undefined;
  if (!declaration.getVariableStatement()?.hasDeclareKeyword()) return undefined;
  const type = declaration.getType();
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.getLiteralValue() as string | number;
  if (type.isBooleanLiteral()) return type.getText() === "true";
  return undefined;
}

function literalValue(node: Node | undefined): string | number | boolean | undefined {
  if (!node) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isTrueLiteral(node)) return true;
  if (Node.isFalseLiteral(node)) return false;
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = node.getOperand();
    if (Node.isNumericLiteral(operand)) return -operand.getLiteralValue();
  }
  return undefined;
}

/** Memoised interface flattening; detects heritage cycles. */
class Flattener {
  private readonly done = new Map<string, IrObjectType>();
  private readonly active = new Set<string>();

  constructor(
    private readonly ctx: TypeContext,
    private readonly interfaces: ReadonlyMap<string, readonly InterfaceDeclaration[]>,
    /** Imported object declarations (already flattened by the imported module's lowering). */
    private readonly imported: ReadonlyMap<string, IrObjectType> = new Map(),
    /** Imported aliases of another declaration (`type A = B`). */
    private readonly importedRefs: ReadonlyMap<string, IrType> = new Map(),
  ) {}

  /** See `fitted`. */
  readonly irregular: string[] = [];

  /** The interface `name` flattened over all of its (merged) declarations. */
  flatten(name: string): IrObjectType {
    const cached = this.done.get(name);
    if (cached) return cached;
    const parts = this.interfaces.get(name) ?? [];
    if (this.active.has(name))
      throw new GeneratorError(`circular heritage through ${name}`, locationOf(parts[0]!, this.ctx));
    this.active.add(name);
    const inherited = new Map<string, IrProp>();
    let index: IrType | undefined;
    const parentOf = new Map<string, string>();
    for (const heritage of parts.flatMap((part) => part.getExtends())) {
      const parent = this.heritageObject(heritage);
      for (const prop of parent.props) {
        inherited.delete(prop.name); // a later parent wins, keeping one entry per name
        inherited.set(prop.name, prop);
        parentOf.set(prop.name, heritage.getText());
      }
      if (parent.index) index = parent.index;
    }
    const written = this.ownMembers(parts);
    const own = { ...written, props: written.props.map((p) => this.fitted(name, parts[0]!, p, inherited, parentOf)) };
    for (const prop of own.props) inherited.delete(prop.name);
    const finalIndex = own.index ?? index;
    const result: IrObjectType = {
      kind: "object",
      props: [...inherited.values(), ...own.props],
      ...(finalIndex ? { index: finalIndex } : {}),
    };
    this.active.delete(name);
    this.done.set(name, result);
    return result;
  }

  /**
   * An own property overriding an inherited object-typed one must keep the members the inherited type requires
   * (TypeScript's TS2430 otherwise). One that does not is irregular: reported, and completed with the missing
   * required members as the parent declares them, so the bindings follow the base (never a silent drop).
   */
  private fitted(
    owner: string,
    at: InterfaceDeclaration,
    prop: IrProp,
    inherited: ReadonlyMap<string, IrProp>,
    parentOf: ReadonlyMap<string, string>,
  ): IrProp {
    const base = inherited.get(prop.name);
    if (!base || prop.type.kind !== "object") return prop;
    const baseObject = this.resolvedObject(base.type);
    if (!baseObject) return prop;
    const have = new Set(prop.type.props.map((p) => p.name));
    const missing = baseObject.props.filter((p) => !p.optional && !have.has(p.name));
    if (missing.length === 0) return prop;
    const parent = parentOf.get(prop.name)!;
    const names = missing.map((p) => p.name).join(", ");
    const baseName = base.type.kind === "ref" ? ` (${base.type.name})` : "";
    const location = locationOf(at, this.ctx);
    this.irregular.push(
      `${location.file}:${location.line}: ${owner} does not fit ${parent} (TS2430): its ${prop.name} lack ${names}, ` +
        `which ${parent}'s ${prop.name}${baseName} require; the bindings follow ${parent}: ${prop.name} carry ${names} as declared there`,
    );
    return { ...prop, type: { ...prop.type, props: [...missing, ...prop.type.props] } };
  }

  /** The object type behind a type, following references to declarations this file knows. */
  private resolvedObject(type: IrType, depth = 0): IrObjectType | undefined {
    if (type.kind === "object") return type;
    if (type.kind !== "ref" || depth > 16) return undefined;
    if (this.interfaces.has(type.name)) return this.flatten(type.name);
    const imported = this.imported.get(type.name);
    if (imported) return imported;
    const ref = this.importedRefs.get(type.name);
    return ref ? this.resolvedObject(ref, depth + 1) : undefined;
  }

  /** The members written in the declarations of one interface (merged: a repeated property is declared once). */
  private ownMembers(parts: readonly InterfaceDeclaration[]): IrObjectType {
    const props = new Map<string, IrProp>();
    let index: IrType | undefined;
    for (const part of parts) {
      const members = lowerMembers(part, this.ctx);
      for (const prop of members.props) if (!props.has(prop.name)) props.set(prop.name, prop);
      if (members.index && index) {
        throw new GeneratorError(`second index signature in merged ${part.getName()}`, locationOf(part, this.ctx));
      }
      index ??= members.index;
    }
    return { kind: "object", props: [...props.values()], ...(index ? { index } : {}) };
  }

  /** `Base` or `Omit<Base, "a" | "b">`, resolved to the base's flattened object. */
  private heritageObject(heritage: ExpressionWithTypeArguments): IrObjectType {
    const name = heritage.getExpression().getText();
    const args = heritage.getTypeArguments();
    if (args.length === 0) return this.objectOf(name, heritage);
    if (name !== "Omit" || args.length !== 2) {
      throw new GeneratorError(`unsupported heritage \`${heritage.getText()}\``, locationOf(heritage, this.ctx));
    }
    const base = lowerTypeNode(args[0]!, this.ctx);
    const omitted = lowerTypeNode(args[1]!, this.ctx);
    const keys = omitted.kind === "union" ? omitted.items : [omitted];
    const names = keys.map((k) => {
      if (k.kind !== "literal" || typeof k.value !== "string") {
        throw new GeneratorError("Omit<> keys must be string literals", locationOf(heritage, this.ctx));
      }
      return k.value;
    });
    if (base.kind !== "ref") throw new GeneratorError("Omit<> needs a named base", locationOf(heritage, this.ctx));
    const object = this.objectOf(base.name, heritage);
    return { ...object, props: object.props.filter((p) => !names.includes(p.name)) };
  }

  /** The flattened object behind a name: an interface, or an alias that is (a chain of aliases to) an object type. */
  private objectOf(name: string, at: Node): IrObjectType {
    if (this.interfaces.has(name)) return this.flatten(name);
    const imported = this.imported.get(name);
    if (imported) return imported;
    const alias = at.getSourceFile().getTypeAlias(name);
    if (alias) {
      const type = lowerTypeNode(alias.getTypeNodeOrThrow(), this.ctx);
      if (type.kind === "object") return type;
      if (type.kind === "ref") return this.objectOf(type.name, alias);
    }
    throw new GeneratorError(
      `cannot extend ${name}: not an object type declared in this file`,
      locationOf(at, this.ctx),
    );
  }
}
