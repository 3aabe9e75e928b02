/**
 * The readiness check (runtime/http/server/redis-check.ts) asks Redis about each command the store sends: every
 * `redis.call('X')` in the store's scripts and every node-redis command method its files call is in the check's list,
 * so an ACL that denies any of them fails readiness (store-errors.test.ts shows one such denial end to end).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../runtime/http/server");
const sources = readdirSync(dir)
  .filter((file) => /^redis-.*\.ts$/.test(file) && file !== "redis-check.ts")
  .map((file) => readFileSync(path.join(dir, file), "utf8"));
const checkSource = readFileSync(path.join(dir, "redis-check.ts"), "utf8");

/** node-redis method → the command it sends (the ones whose name is not the command's). */
const METHOD_COMMAND: Record<string, string> = { lPopCount: "LPOP" };
/** Methods that send no data command the check could ask about: the connection's own. */
// (and promise and TextEncoder methods the pattern also meets)
const NOT_DATA = new Set([
  "then",
  "catch",
  "finally",
  "encode",
  "connect",
  "close",
  "destroy",
  "duplicate",
  "multi",
  "exec",
  "on",
  "ping",
  "subscribe",
]);

describe("the readiness check covers the store's commands", () => {
  const checked = new Set([...checkSource.matchAll(/\["([A-Z]+)"/g)].map((m) => m[1]!));

  it("every command inside a script", () => {
    const inScripts = new Set(sources.flatMap((s) => [...s.matchAll(/redis\.call\('([A-Z]+)'/g)].map((m) => m[1]!)));
    expect(inScripts.size).toBeGreaterThan(10);
    expect([...inScripts].filter((command) => !checked.has(command))).toEqual([]);
  });

  it("every command method called on a client", () => {
    const methods = new Set(
      sources.flatMap((s) => [...s.matchAll(/(?:client\(\)|client|\))\s*\.([a-z][A-Za-z]*)\(/g)].map((m) => m[1]!)),
    );
    const commands = [...methods]
      .filter((method) => !NOT_DATA.has(method) && /^[a-z]{1,4}[A-Z]?[a-zA-Z]*$/.test(method))
      .map((method) => METHOD_COMMAND[method] ?? method.toUpperCase());
    expect(commands).toContain("HGETALL");
    expect(commands.filter((command) => !checked.has(command))).toEqual([]);
  });
});
