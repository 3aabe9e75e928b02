/**
 * IR invariants, checked before anything is emitted: references resolve, names are unique and usable as
 * identifiers, every request has a result and every method a direction. Violations throw `GeneratorError` with the
 * declaration's location.
 */
import type { IrModel } from "./model.ts";
import { GeneratorError } from "./errors.ts";
import { baseNames, modelTypes, walkType } from "./walk.ts";

/** An identifier name (ASCII): what a declaration may be called, and what emitters may print bare as a key. */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function validateModel(model: IrModel): void {
  const names = new Set<string>();
  for (const decl of model.types) {
    if (names.has(decl.name)) throw new GeneratorError(`duplicate type name ${decl.name}`, decl.location);
    if (!IDENTIFIER.test(decl.name))
      throw new GeneratorError(`type name ${decl.name} is not an identifier`, decl.location);
    names.add(decl.name);
  }
  const locations = new Map(model.types.map((t) => [t.name, t.location]));
  // An extension's imported names resolve in its base revision's bindings.
  const fromBase = baseNames(model);
  for (const local of fromBase.keys())
    if (names.has(local)) throw new GeneratorError(`${local} is both imported and declared`, locations.get(local));
  for (const { type, owner } of modelTypes(model)) {
    walkType(type, (t) => {
      if (t.kind === "ref" && !names.has(t.name) && !fromBase.has(t.name)) {
        throw new GeneratorError(`${owner} references undeclared type ${t.name}`, locations.get(owner));
      }
    });
  }
  const values = new Set([...model.types.map((t) => `${t.name}Schema`), "methods", "PROTOCOL_REVISION"]);
  for (const c of model.constants) {
    if (values.has(c.name)) throw new GeneratorError(`constant ${c.name} collides with a generated export`);
    values.add(c.name);
  }
  const methods = new Set<string>();
  for (const m of model.methods) {
    const at = locations.get(m.typeName);
    if (methods.has(m.method)) throw new GeneratorError(`duplicate method ${m.method}`, at);
    methods.add(m.method);
    if (m.kind === "request" && !m.result) throw new GeneratorError(`request ${m.method} has no result`, at);
    if (m.kind === "notification" && m.result) throw new GeneratorError(`notification ${m.method} has a result`, at);
    if (m.kind === "request" && !m.resultFacts) throw new GeneratorError(`request ${m.method} has no result facts`, at);
    if (m.kind === "notification" && m.resultFacts)
      throw new GeneratorError(`notification ${m.method} has result facts`, at);
    if (m.resultFacts && m.resultFacts.inputRequired !== (m.resultFacts.complete !== undefined))
      throw new GeneratorError(
        `request ${m.method}: a complete result is given exactly when input may be required`,
        at,
      );
  }
  const { protocol } = model;
  if (protocol.inputRequiredResult !== undefined && !names.has(protocol.inputRequiredResult))
    throw new GeneratorError(`the input-required result ${protocol.inputRequiredResult} is not declared`);
  if (protocol.version === "") throw new GeneratorError("the protocol version is empty");
}
