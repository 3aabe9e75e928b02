/**
 * `npm run bench`: runs every bench/*.ts file except this one, in name order, each in its own process (so one
 * benchmark's warm caches or heap do not skew the next). Add a benchmark by adding a file.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const dir = path.dirname(self);
const tsx = path.join(dir, "../node_modules/tsx/dist/cli.mjs");
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && f !== path.basename(self))
  .sort()) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [tsx, path.join(dir, file)], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
