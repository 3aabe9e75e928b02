/**
 * Identifiers derived from manifest names (tool `get-weather.v2` → `GetWeatherV2`). One function per use, so every
 * emitter derives the same name; collisions are reported by the lowering, never silently suffixed.
 */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await"
  ).split(" "),
);

/** `get_weather`, `get-weather`, `get.weather`, `getWeather` → `GetWeather`. Leading digits get a `T` prefix. */
export function pascalName(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  if (joined.length === 0) return "T";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

/** `get_weather` → `getWeather`: for parameter-like identifiers. */
export function camelName(name: string): string {
  const pascal = pascalName(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** True when `name` can be written as a bare property key / identifier in generated code. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/** A property key as it must be written in generated code: bare when possible, else a JSON string literal. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
