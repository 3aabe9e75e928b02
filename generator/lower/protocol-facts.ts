/**
 * IR declarations and methods → the protocol facts the runtime acts on: per revision the era, wire version, batch
 * support and multi round-trip result; per request whether its complete result carries `resultType` or caching
 * hints and whether it may be an input-required result. Everything is read from the schema's structure (method
 * strings, property names, union members), never from the revision name.
 */
import type { IrConst, IrMethod, IrProtocolFacts, IrResultFacts, IrType, IrTypeDecl } from "../ir/model.ts";
import { PROTOCOL_VOCABULARY } from "./quirks.ts";

export interface ProtocolFactsInput {
  readonly revision: string;
  readonly types: readonly IrTypeDecl[];
  readonly methods: readonly IrMethod[];
  readonly constants: readonly IrConst[];
  /** An extension schema (it imports its base): not a revision, so no era or version is expected. */
  readonly extension?: boolean;
}

export interface LoweredProtocolFacts {
  readonly protocol: IrProtocolFacts;
  /** The methods with `resultFacts` filled in on every request. */
  readonly methods: IrMethod[];
  readonly warnings: string[];
}

export function lowerProtocolFacts(input: ProtocolFactsInput): LoweredProtocolFacts {
  const byName = new Map(input.types.map((t) => [t.name, t]));
  const warnings: string[] = [];
  const methodNames = new Set(input.methods.map((m) => m.method));
  const era = methodNames.has(PROTOCOL_VOCABULARY.handshakeMethod)
    ? "handshake"
    : methodNames.has(PROTOCOL_VOCABULARY.statelessMethod)
      ? "stateless"
      : undefined;
  if (!era && !input.extension) {
    warnings.push(
      `neither ${PROTOCOL_VOCABULARY.handshakeMethod} nor ${PROTOCOL_VOCABULARY.statelessMethod} is a method: ` +
        `the bindings get no revision descriptor and cannot be served`,
    );
  }
  const versionConst = input.constants.find((c) => c.name === PROTOCOL_VOCABULARY.versionConstant);
  const version = typeof versionConst?.value === "string" ? versionConst.value : undefined;
  if (version === undefined && !input.extension) {
    warnings.push(
      `no string constant ${PROTOCOL_VOCABULARY.versionConstant}: the wire version falls back to the revision name "${input.revision}"`,
    );
  }
  const inputRequired = byName.has(PROTOCOL_VOCABULARY.inputRequiredResult)
    ? PROTOCOL_VOCABULARY.inputRequiredResult
    : undefined;
  const protocol: IrProtocolFacts = {
    ...(era ? { era } : {}),
    version: version ?? input.revision,
    versionSource: version !== undefined ? "LATEST_PROTOCOL_VERSION" : "revision-name",
    batches: hasBatches(byName),
    ...(inputRequired ? { inputRequiredResult: inputRequired } : {}),
  };
  const methods = input.methods.map((m) =>
    m.kind === "request" && m.result ? { ...m, resultFacts: resultFacts(m.result, inputRequired, byName) } : m,
  );
  return { protocol, methods, warnings };
}

/** Batches exist when the schema's message union has an array member (`JSONRPCBatchRequest` in 2025-03-26). */
function hasBatches(byName: ReadonlyMap<string, IrTypeDecl>): boolean {
  const message = byName.get(PROTOCOL_VOCABULARY.messageUnion);
  if (!message) return false;
  return unionMembers(message.type, byName).some((member) => member.kind === "array" || member.kind === "tuple");
}

function resultFacts(
  result: IrType,
  inputRequired: string | undefined,
  byName: ReadonlyMap<string, IrTypeDecl>,
): IrResultFacts {
  const members = unionMembers(result, byName);
  const complete = members.filter((m) => !(m.kind === "ref" && m.name === inputRequired));
  const keys = new Set(complete.flatMap((m) => propertyNames(m, byName)));
  const splits = complete.length < members.length && complete.length > 0;
  return {
    resultType: keys.has("resultType"),
    cacheable: keys.has("ttlMs") && keys.has("cacheScope"),
    inputRequired: splits,
    ...(splits ? { complete: complete.length === 1 ? complete[0]! : { kind: "union", items: complete } } : {}),
  };
}

/** The members of a union type, following references to union aliases. */
function unionMembers(type: IrType, byName: ReadonlyMap<string, IrTypeDecl>, depth = 0): IrType[] {
  if (depth > 16) return [type];
  if (type.kind === "ref") {
    const target = byName.get(type.name)?.type;
    if (target?.kind === "union" || target?.kind === "ref") return unionMembers(target, byName, depth + 1);
    // Array aliases (`JSONRPCBatchRequest`) are looked through; object declarations stay named references.
    return target?.kind === "array" || target?.kind === "tuple" ? [target] : [type];
  }
  if (type.kind === "union") return type.items.flatMap((item) => unionMembers(item, byName, depth + 1));
  return [type];
}

/** Property names an object type declares (declarations are flattened, so inherited ones included). */
function propertyNames(type: IrType, byName: ReadonlyMap<string, IrTypeDecl>, depth = 0): string[] {
  if (depth > 16) return [];
  switch (type.kind) {
    case "ref": {
      const target = byName.get(type.name)?.type;
      return target ? propertyNames(target, byName, depth + 1) : [];
    }
    case "object":
      return type.props.map((p) => p.name);
    case "intersection":
    case "union":
      return type.items.flatMap((item) => propertyNames(item, byName, depth + 1));
    default:
      return [];
  }
}
