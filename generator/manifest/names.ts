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

/**
 * The typed client's member name for a tool, template or prompt: the identifier in camelCase (`get-sum` → `getSum`,
 * `Dynamic Text Resource` → `dynamicTextResource`, `URL_fetch` → `urlFetch`, `HTTP2` → `http2`). A leading run of
 * capitals is lowered as one word; the lowering reports two names that meet here.
 */
export function memberName(name: string): string {
  const pascal = pascalName(name);
  const run = /^[A-Z]+/.exec(pascal)?.[0] ?? "";
  // In `URLFetch` the run's last capital starts the next word (`Fetch`); elsewhere the whole run is one word.
  const keep = run.length > 1 && /[a-z]/.test(pascal.charAt(run.length)) ? run.length - 1 : run.length;
  return pascal.slice(0, keep).toLowerCase() + pascal.slice(keep);
}

/** The names of a tool, template or prompt: as written (the wire's), its identifier stem and its client method. */
export function namesOf(name: string): { name: string; identifier: string; member: string } {
  return { name, identifier: pascalName(name), member: memberName(name) };
}
