/**
 * Example fixtures of a revision (.spec/<rev>/examples/<Type>/*.json) and negative variants derived from
 * them with the IR: a required property removed, a wrong `method` literal, a wrong `jsonrpc`, a bad `@format uri`
 * value, a value of the wrong primitive type. Variant ids are stable (`Type/file.json#kind:path`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { IrModel, IrObjectType, IrType } from "../../generator/ir/model.ts";
import { specFile } from "./spec.ts";

export interface Fixture {
  readonly id: string;
  readonly type: string;
  readonly value: unknown;
}

export function exampleFixtures(revision: string): Fixture[] {
  const root = specFile(revision, "examples");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .flatMap((type) =>
      readdirSync(path.join(root, type))
        .sort()
        .map((file) => ({
          id: `${type}/${file}`,
          type,
          value: JSON.parse(readFileSync(path.join(root, type, file), "utf8")),
        })),
    );
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isRecord = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The object type behind a type, following refs; undefined for unions and everything else. */
function objectType(type: IrType | undefined, model: IrModel): IrObjectType | undefined {
  for (let i = 0; type?.kind === "ref" && i < 16; i++) {
    const name: string = type.name;
    type = model.types.find((t) => t.name === name)?.type;
  }
  return type?.kind === "object" ? type : undefined;
}

const WRONG_PRIMITIVE: Record<string, Json> = { string: 42, number: "42", boolean: "true" };

function withValue(
  root: Json,
  at: readonly (string | number)[],
  change: (parent: Record<string, Json> | Json[], key: string | number) => void,
): Json {
  const copy = structuredClone(root);
  let parent = copy as Record<string, Json> | Json[];
  for (const key of at.slice(0, -1)) parent = (parent as Record<string, Json>)[key] as Record<string, Json>;
  change(parent, at.at(-1)!);
  return copy;
}

export function negativeVariants(fixture: Fixture, model: IrModel): Fixture[] {
  const root = fixture.value as Json;
  const variants: Fixture[] = [];
  const add = (
    kind: string,
    at: readonly (string | number)[],
    change: (p: Record<string, Json> | Json[], k: string | number) => void,
  ) =>
    variants.push({
      id: `${fixture.id}#${kind}:/${at.join("/")}`,
      type: fixture.type,
      value: withValue(root, at, change),
    });

  const visit = (value: Json, type: IrType | undefined, at: (string | number)[], top: boolean): void => {
    if (type?.kind === "array" && Array.isArray(value)) {
      value.forEach((item, i) => visit(item, type.element, [...at, i], false));
      return;
    }
    const object = objectType(type, model);
    if (!object || !isRecord(value)) return;
    for (const prop of object.props) {
      if (!(prop.name in value)) continue;
      const here = [...at, prop.name];
      const current = value[prop.name]!;
      if (top && !prop.optional) add("required", here, (p, k) => delete (p as Record<string, Json>)[k]);
      if (prop.name === "method" && prop.type.kind === "literal")
        add("method", here, (p, k) => ((p as Record<string, Json>)[k] = "no/such-method"));
      if (prop.name === "jsonrpc" && prop.type.kind === "literal")
        add("jsonrpc", here, (p, k) => ((p as Record<string, Json>)[k] = "1.0"));
      if (prop.constraints?.format === "uri" && typeof current === "string") {
        add("format-uri", here, (p, k) => ((p as Record<string, Json>)[k] = "not a uri"));
      }
      if (top && prop.type.kind === "primitive" && WRONG_PRIMITIVE[prop.type.name] !== undefined) {
        add(
          "primitive",
          here,
          (p, k) => ((p as Record<string, Json>)[k] = WRONG_PRIMITIVE[(prop.type as { name: string }).name]!),
        );
      }
      visit(current, prop.type, here, false);
    }
  };
  const decl = model.types.find((t) => t.name === fixture.type);
  visit(root, decl?.type, [], true);
  return variants;
}
