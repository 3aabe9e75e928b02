/**
 * IR declarations → IR methods. Method strings come from the `method` literals, directions from the direction unions,
 * results from response envelopes / naming / the quirks table, capability gates from the capabilities declarations.
 * A request that none of these pair (e.g. one answered only by notifications) gets the base `Result` type and a
 * warning naming it; without a base `Result` declaration it is an error at the request's location.
 */
import type { IrCapabilityGate, IrLocation, IrMethod, IrObjectType, IrType, IrTypeDecl } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import {
  CAPABILITY_DECLARATIONS,
  CAPABILITY_QUIRKS,
  DIRECTION_UNIONS,
  RESULT_NAMING,
  RESULT_QUIRKS,
  gateSide,
} from "./quirks.ts";

interface Sighting {
  readonly decl: IrTypeDecl;
  readonly senders: Set<"client" | "server">;
  readonly kind: IrMethod["kind"];
  readonly delivery: IrMethod["delivery"];
}

export type Warn = (message: string, location?: IrLocation) => void;

/**
 * `discover`: the declarations of an extension schema, whose messages need not be members of a direction union:
 * every one of them with a required string-literal `method` and a `jsonrpc` property that no direction union lists
 * is a message (a request when it has an `id`), sent in `both` directions unless a union says otherwise, with a
 * warning naming them. Only the extension's own direction unions count, never those of the base it imports.
 */
export function lowerMethods(
  types: readonly IrTypeDecl[],
  warn: Warn = () => {},
  discover?: ReadonlySet<string>,
): IrMethod[] {
  const byName = new Map(types.map((t) => [t.name, t]));
  const sightings = new Map<string, Sighting>();
  for (const [unionName, role] of Object.entries(DIRECTION_UNIONS)) {
    const union = byName.get(unionName);
    // An extension's methods are its own: direction unions pulled in from its base do not count.
    if (!union || (discover && !discover.has(unionName))) continue;
    for (const member of unionMembers(union, byName)) {
      const method = methodLiteral(member, byName);
      const seen = sightings.get(method);
      if (seen && (seen.decl !== member || seen.kind !== role.kind || seen.delivery !== role.delivery)) {
        throw new GeneratorError(
          `method "${method}" is declared by both ${seen.decl.name} and ${member.name} (or with conflicting roles)`,
          member.location,
        );
      }
      const sighting = seen ?? { decl: member, senders: new Set(), kind: role.kind, delivery: role.delivery };
      sighting.senders.add(role.sender);
      sightings.set(method, sighting);
    }
  }
  if (discover) discoverMessages(types, discover, sightings, byName, warn);
  const methods = [...sightings.entries()].map(([method, s]) => buildMethod(method, s, byName, warn));
  return methods.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

function buildMethod(method: string, s: Sighting, byName: ReadonlyMap<string, IrTypeDecl>, warn: Warn): IrMethod {
  const direction = s.senders.size === 2 ? "both" : s.senders.has("client") ? "clientToServer" : "serverToClient";
  const params = messageProps(s.decl, byName).find((p) => p.name === "params");
  const paired = s.kind === "request" ? pairResult(s.decl, byName, warn) : undefined;
  const capability = capabilityGate(method, s.kind, direction, byName);
  return {
    method,
    kind: s.kind,
    typeName: s.decl.name,
    direction,
    delivery: s.delivery,
    ...(params ? { params: params.type } : {}),
    paramsOptional: params ? params.optional : true,
    ...(paired ? { result: paired.result, resultSource: paired.source } : {}),
    ...(capability ? { capability } : {}),
    ...(s.decl.doc ? { doc: s.decl.doc } : {}),
  };
}

function discoverMessages(
  types: readonly IrTypeDecl[],
  discover: ReadonlySet<string>,
  sightings: Map<string, Sighting>,
  byName: ReadonlyMap<string, IrTypeDecl>,
  warn: Warn,
): void {
  const listed = new Set([...sightings.values()].map((s) => s.decl));
  const found: IrTypeDecl[] = [];
  for (const decl of types) {
    // Direction unions and plain aliases of another declaration are not messages of their own.
    if (!discover.has(decl.name) || listed.has(decl) || decl.name in DIRECTION_UNIONS || decl.type.kind === "ref") {
      continue;
    }
    const props = resolveProps(decl.type, byName);
    const method = props?.find((p) => p.name === "method");
    if (!props || !method || method.optional) continue;
    const name = stringLiteralOf(method.type);
    if (name === undefined) continue;
    let kind: IrMethod["kind"] = props.some((p) => p.name === "id") ? "request" : "notification";
    if (!props.some((p) => p.name === "jsonrpc")) {
      if (!unframedRequest(decl, discover, byName)) continue;
      kind = "request";
      warn(
        `${decl.name} extends ${decl.extends.join(", ")}, which carries no jsonrpc or id (a message without its ` +
          `JSON-RPC envelope): taken as the request "${name}", framed as the base revision frames every request; ` +
          `its params are as declared`,
        decl.location,
      );
    }
    const existing = sightings.get(name);
    if (existing) {
      throw new GeneratorError(
        `method "${name}" is declared by both ${existing.decl.name} and ${decl.name}`,
        decl.location,
      );
    }
    sightings.set(name, { decl, senders: new Set(["client", "server"]), kind, delivery: "message" });
    found.push(decl);
  }
  if (found.length > 0) {
    const unions = Object.keys(DIRECTION_UNIONS).join(", ");
    warn(
      `${found.map((d) => d.name).join(", ")}: in no direction union (${unions}), so sent in both directions; ` +
        `declare the unions in the schema to narrow them`,
      found[0]!.location,
    );
  }
}

/**
 * An extension's own declaration that extends only declarations of its base and has no `jsonrpc` (the Skills page's
 * `GetSkillRequest extends Request`), named `<X>Request` with an `<X>Result` declared: a request, written without
 * its envelope. Anything else without `jsonrpc` is not a message (a package's view-side types, say).
 */
function unframedRequest(decl: IrTypeDecl, own: ReadonlySet<string>, byName: ReadonlyMap<string, IrTypeDecl>): boolean {
  const { requestSuffix, resultSuffix } = RESULT_NAMING;
  if (decl.extends.length === 0 || decl.extends.some((name) => own.has(name))) return false;
  if (!decl.name.endsWith(requestSuffix)) return false;
  return byName.has(decl.name.slice(0, -requestSuffix.length) + resultSuffix);
}

/** The string literal a type is, or narrows to by intersection (`string & "tasks/get"`). */
function stringLiteralOf(type: IrType): string | undefined {
  if (type.kind === "literal") return typeof type.value === "string" ? type.value : undefined;
  if (type.kind !== "intersection") return undefined;
  const literals = new Set(type.items.map(stringLiteralOf).filter((v) => v !== undefined));
  return literals.size === 1 ? [...literals][0] : undefined;
}

/** Properties of an object type, a reference to one, or an intersection of those. */
function resolveProps(
  type: IrType,
  byName: ReadonlyMap<string, IrTypeDecl>,
  depth = 0,
): readonly IrObjectType["props"][number][] | undefined {
  if (depth > 16) return undefined;
  if (type.kind === "object") return type.props;
  if (type.kind === "ref") {
    const target = byName.get(type.name);
    return target ? resolveProps(target.type, byName, depth + 1) : undefined;
  }
  if (type.kind !== "intersection") return undefined;
  const props = new Map<string, IrObjectType["props"][number]>();
  for (const item of type.items) {
    const itemProps = resolveProps(item, byName, depth + 1);
    if (!itemProps) return undefined;
    for (const prop of itemProps) {
      // A property on several members has the intersection of their types (`params` of a base and of the message).
      const seen = props.get(prop.name);
      const type: IrType = seen ? { kind: "intersection", items: [seen.type, prop.type] } : prop.type;
      props.set(prop.name, { ...prop, type, optional: prop.optional && (seen?.optional ?? true) });
    }
  }
  return [...props.values()];
}

/** Members of a direction union, following nested union aliases. */
function unionMembers(decl: IrTypeDecl, byName: ReadonlyMap<string, IrTypeDecl>): IrTypeDecl[] {
  const items = decl.type.kind === "union" ? decl.type.items : [decl.type];
  return items.flatMap((item) => {
    if (item.kind !== "ref")
      throw new GeneratorError(`${decl.name} must be a union of named message types`, decl.location);
    const target = byName.get(item.name);
    if (!target) throw new GeneratorError(`${decl.name} names an undeclared type ${item.name}`, decl.location);
    return target.form === "alias" && target.type.kind === "union" ? unionMembers(target, byName) : [target];
  });
}

/** A message declaration's properties: an object type, or an intersection of object types (`JSONRPCRequest & {…}`). */
function messageProps(
  decl: IrTypeDecl,
  byName: ReadonlyMap<string, IrTypeDecl>,
): readonly IrObjectType["props"][number][] {
  if (decl.type.kind === "object") return decl.type.props;
  const props = resolveProps(decl.type, byName);
  if (!props) throw new GeneratorError(`message type ${decl.name} is not an object type`, decl.location);
  return props;
}

function objectOf(decl: IrTypeDecl): IrObjectType {
  if (decl.type.kind !== "object")
    throw new GeneratorError(`message type ${decl.name} is not an object type`, decl.location);
  return decl.type;
}

function methodLiteral(decl: IrTypeDecl, byName: ReadonlyMap<string, IrTypeDecl>): string {
  const prop = messageProps(decl, byName).find((p) => p.name === "method");
  const method = prop && !prop.optional ? stringLiteralOf(prop.type) : undefined;
  if (method === undefined) {
    throw new GeneratorError(`message type ${decl.name} needs a required string-literal \`method\``, decl.location);
  }
  return method;
}

function pairResult(
  request: IrTypeDecl,
  byName: ReadonlyMap<string, IrTypeDecl>,
  warn: Warn,
): { result: IrType; source: NonNullable<IrMethod["resultSource"]> } {
  const { requestSuffix, envelopeSuffix, resultSuffix } = RESULT_NAMING;
  const base = request.name.endsWith(requestSuffix) ? request.name.slice(0, -requestSuffix.length) : undefined;
  const envelope = base !== undefined ? byName.get(base + envelopeSuffix) : undefined;
  if (envelope) {
    const result = objectOf(envelope).props.find((p) => p.name === "result");
    if (!result || result.optional) {
      throw new GeneratorError(`${envelope.name} needs a required \`result\` property`, envelope.location);
    }
    return { result: result.type, source: "response-envelope" };
  }
  const quirk = RESULT_QUIRKS[request.name];
  if (quirk !== undefined) {
    if (!byName.has(quirk)) {
      throw new GeneratorError(
        `RESULT_QUIRKS pairs ${request.name} with ${quirk}, which is not declared`,
        request.location,
      );
    }
    return { result: { kind: "ref", name: quirk }, source: "pairing-table" };
  }
  const named = base !== undefined ? byName.get(base + resultSuffix) : undefined;
  if (named) return { result: { kind: "ref", name: named.name }, source: "naming" };
  const why =
    `no ${base ?? request.name}${envelopeSuffix}, no ${base ?? request.name}${resultSuffix}, ` +
    `and no entry in RESULT_QUIRKS (generator/lower/quirks.ts)`;
  if (!byName.has(RESULT_NAMING.baseResult)) {
    throw new GeneratorError(`cannot pair request ${request.name} with a result: ${why}`, request.location);
  }
  warn(`request ${request.name} is paired with the base ${RESULT_NAMING.baseResult} type: ${why}`, request.location);
  return { result: { kind: "ref", name: RESULT_NAMING.baseResult }, source: "base-result" };
}

/**
 * The gate for `prefix/rest` is the capability `prefix` of the gating side, narrowed to `prefix.sub` when `sub` (the
 * next method segment, camel-cased) is a property of it. Notifications drop their `notifications/` segment first and
 * must match the narrowed form (e.g. `notifications/tools/list_changed` → `tools.listChanged`).
 */
function capabilityGate(
  method: string,
  kind: IrMethod["kind"],
  direction: IrMethod["direction"],
  byName: ReadonlyMap<string, IrTypeDecl>,
): IrCapabilityGate | undefined {
  const quirk = CAPABILITY_QUIRKS[method];
  if (quirk) return capabilityPathExists(quirk, byName) ? quirk : undefined;
  const side = gateSide(kind, direction);
  if (!side) return undefined;
  const segments = method.split("/");
  if (kind === "notification") segments.shift();
  const [head, next] = segments;
  if (head === undefined) return undefined;
  const top = capabilityProps(side, [], byName)?.find((p) => p.name === head);
  if (!top) return undefined;
  const sub = next === undefined ? undefined : camelCase(next);
  const narrowed = sub !== undefined && capabilityProps(side, [head], byName)?.some((p) => p.name === sub);
  if (narrowed) return { side, path: [head, sub] };
  return kind === "request" ? { side, path: [head] } : undefined;
}

function capabilityPathExists(gate: IrCapabilityGate, byName: ReadonlyMap<string, IrTypeDecl>): boolean {
  const parent = capabilityProps(gate.side, gate.path.slice(0, -1), byName);
  return parent?.some((p) => p.name === gate.path.at(-1)) ?? false;
}

/** Properties of the object at `path` inside a side's capabilities declaration, or undefined if there is none. */
function capabilityProps(side: "client" | "server", path: readonly string[], byName: ReadonlyMap<string, IrTypeDecl>) {
  let type: IrType | undefined = byName.get(CAPABILITY_DECLARATIONS[side])?.type;
  for (const segment of path) {
    type = resolveObject(type, byName)?.props.find((p) => p.name === segment)?.type;
  }
  return resolveObject(type, byName)?.props;
}

function resolveObject(type: IrType | undefined, byName: ReadonlyMap<string, IrTypeDecl>): IrObjectType | undefined {
  for (let i = 0; type?.kind === "ref" && i < 16; i++) type = byName.get(type.name)?.type;
  return type?.kind === "object" ? type : undefined;
}

function camelCase(segment: string): string {
  return segment.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
