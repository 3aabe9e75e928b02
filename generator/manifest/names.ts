/**
 * Identifiers derived from manifest names (tool `get-weather.v2` → `GetWeatherV2`), so every emitter derives the same
 * name; collisions are reported by the lowering, never silently suffixed. (Property keys: `propertyKey` in
 * emit/ts-types.ts.)
 */

/** `get_weather`, `get-weather`, `get.weather`, `getWeather` → `GetWeather`. Leading digits get a `T` prefix. */
export function pascalName(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  if (joined.length === 0) return "T";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}
