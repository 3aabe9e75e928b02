/**
 * How a host config's `command` is started on Windows. `spawn("npx")` fails there: `npx` is `npx.cmd`, which
 * `CreateProcess` neither finds (it only adds `.exe`) nor runs (a batch file needs `cmd.exe`, and Node refuses to
 * start one without a shell since the CVE-2024-27980 fix). So the command is looked up in `PATH` with the `PATHEXT`
 * extensions, an executable (`.exe`, `.com`) is started directly, and anything else through `cmd.exe /d /s /c` with
 * every argument quoted and cmd's metacharacters escaped, so an argument stays one argument and runs nothing.
 * The same resolution as the official SDK's client (through the cross-spawn package); written here to keep the
 * runtime's installs at their size. Pure, so it is tested on any platform.
 */
import path from "node:path";

/** What to hand `spawn` for a command and its arguments. */
export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** Arguments already quoted for `cmd.exe` (Node must not quote them again). */
  readonly verbatim: boolean;
}

/** What the resolution reads from the machine (the real one: `process.env`, the file system). */
export interface WindowsLookup {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly isFile: (file: string) => boolean;
}

const DIRECT = new Set([".exe", ".com"]);
/** cmd.exe's metacharacters, escaped with `^` (outside quotes they would start another command or expand a value). */
const META = /([()\][%!^"`<>&|;, *?])/g;

/** Environment lookup as Windows does it: names are case-insensitive (`Path` is `PATH`). */
function envValue(env: WindowsLookup["env"], name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** The file `command` names: itself when it has a folder or a known extension and exists, else the first PATH hit. */
export function resolveWindowsCommand(command: string, lookup: WindowsLookup): string | undefined {
  const extensions = (envValue(lookup.env, "PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "");
  const candidates = (base: string) => [
    ...(extensions.some((e) => base.toUpperCase().endsWith(e.toUpperCase())) ? [base] : []),
    ...extensions.map((e) => base + e.toLowerCase()),
  ];
  if (/[\\/]/.test(command)) return candidates(path.win32.resolve(lookup.cwd, command)).find(lookup.isFile);
  const folders = [lookup.cwd, ...(envValue(lookup.env, "PATH") ?? "").split(";").filter((d) => d !== "")];
  for (const folder of folders) {
    const hit = candidates(path.win32.join(folder, command)).find(lookup.isFile);
    if (hit) return hit;
  }
  return undefined;
}

/** One argument quoted for the C runtime's parser (backslashes before a quote doubled), then escaped for cmd. */
function quoteArgument(arg: string, twice: boolean): string {
  let quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1")}"`;
  quoted = quoted.replace(META, "^$1");
  // An npm shim (.cmd) hands its arguments to another cmd line, which removes one level of escapes again.
  return twice ? quoted.replace(META, "^$1") : quoted;
}

/** How to start `command` with `args` on Windows (`platform` other than win32: unchanged). */
export function spawnPlan(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform,
  lookup: WindowsLookup,
): SpawnPlan {
  if (platform !== "win32") return { file: command, args, verbatim: false };
  const file = resolveWindowsCommand(command, lookup);
  if (file === undefined || DIRECT.has(path.win32.extname(file).toLowerCase()))
    return { file: file ?? command, args, verbatim: false };
  const shim = /\.cmd$/i.test(file) && /node_modules[\\/]\.bin[\\/]/i.test(file);
  const line = [path.win32.normalize(file).replace(META, "^$1"), ...args.map((a) => quoteArgument(a, shim))].join(" ");
  return { file: envValue(lookup.env, "COMSPEC") ?? "cmd.exe", args: ["/d", "/s", "/c", `"${line}"`], verbatim: true };
}
