/**
 * The generated names of a manifest's types. Each type name `N` also names its validators in schemas.ts (`NSchema`,
 * and `NShape` for a tool schema's zod part when the JSON Schema check completes it), and index.ts re-exports types
 * and validators side by side: two names collide when any of their *families* meet (a `$defs` entry `Schema` of
 * `FooInput` would be `FooInputSchema`, the validator of `FooInput`).
 *
 * Names of manifest entries (`GetForecastInput`) are the API and are claimed as they are (a clash is an error naming
 * both sources); names the lowering invents for `$defs` entries and other `$ref` targets are derived free of every
 * claimed family: the wanted name, else the first free `<name>2`, `<name>3`, …. An invented name never ends like a
 * validator's (`…Schema`, `…Shape`), so it cannot take the validator name of an entry lowered later either.
 */

/** The suffixes the emitters add to a type name for its validators (emit/user/emit-user-types.ts). */
export const VALIDATOR_SUFFIXES = ["Schema", "Shape"] as const;

const familyOf = (name: string): string[] => [name, ...VALIDATOR_SUFFIXES.map((s) => `${name}${s}`)];

/**
 * Whether `name`'s family meets the family of a name in `taken` (`taken` holds type names; their validators' names
 * are implied).
 */
export function clashes(taken: ReadonlySet<string>, name: string): boolean {
  if (familyOf(name).some((n) => taken.has(n))) return true;
  return VALIDATOR_SUFFIXES.some((s) => name.endsWith(s) && taken.has(name.slice(0, -s.length)));
}

/** Claims `wanted` or the first free numbered variant of it; returns the name claimed. */
export function deriveName(taken: Set<string>, wanted: string): string {
  const usable = (name: string) => !clashes(taken, name) && !VALIDATOR_SUFFIXES.some((s) => name.endsWith(s));
  let name = wanted;
  for (let n = 2; !usable(name); n++) name = `${wanted}${n}`;
  taken.add(name);
  return name;
}
