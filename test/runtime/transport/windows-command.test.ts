/**
 * A host config's `"command": "npx"` on Windows (runtime/transport/windows-command.ts): found through PATH and
 * PATHEXT, and a batch file run by cmd.exe with its arguments quoted and escaped. Windows cannot run here, so the
 * resolution is checked as a function of a made-up machine; the expected command lines are written out by hand from
 * cmd.exe's and the C runtime's quoting rules.
 */
import { describe, expect, it } from "vitest";
import { resolveWindowsCommand, spawnPlan, type WindowsLookup } from "../../../runtime/transport/windows-command.ts";

const NODE = "C:\\Program Files\\nodejs";
function machine(files: readonly string[], env: Record<string, string> = {}): WindowsLookup {
  const present = new Set(files.map((f) => f.toLowerCase()));
  return {
    env: { Path: `C:\\Windows\\system32;${NODE}`, PATHEXT: ".COM;.EXE;.BAT;.CMD", ...env },
    cwd: "C:\\work",
    isFile: (file) => present.has(file.toLowerCase()),
  };
}

describe("a command on Windows", () => {
  it("npx resolves to npx.cmd through Path (any case) and PATHEXT, and runs through cmd.exe", () => {
    const lookup = machine([`${NODE}\\npx.cmd`, `${NODE}\\node.exe`], { ComSpec: "C:\\Windows\\system32\\cmd.exe" });
    expect(resolveWindowsCommand("npx", lookup)).toBe(`${NODE}\\npx.cmd`);
    expect(spawnPlan("npx", ["-y", "@modelcontextprotocol/server-everything"], "win32", lookup)).toEqual({
      file: "C:\\Windows\\system32\\cmd.exe",
      args: [
        "/d",
        "/s",
        "/c",
        '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@modelcontextprotocol/server-everything^""',
      ],
      verbatim: true,
    });
  });

  it("an executable starts directly, with its arguments as given", () => {
    const lookup = machine([`${NODE}\\node.exe`]);
    expect(spawnPlan("node", ["server.js", "a b"], "win32", lookup)).toEqual({
      file: `${NODE}\\node.exe`,
      args: ["server.js", "a b"],
      verbatim: false,
    });
  });

  it("an argument stays one argument and runs nothing: quotes, backslashes and cmd's metacharacters escaped", () => {
    const lookup = machine(["C:\\tools\\run.bat"]);
    const plan = spawnPlan("C:\\tools\\run", ['say "hi" & del x', "dir\\", "100%"], "win32", lookup);
    expect(plan.file).toBe("cmd.exe");
    expect(plan.args.at(-1)).toBe('"C:\\tools\\run.bat ^"say^ \\^"hi\\^"^ ^&^ del^ x^" ^"dir\\\\^" ^"100^%^""');
  });

  it("an npm shim in node_modules\\.bin gets its metacharacters escaped twice (it hands them to a second cmd line)", () => {
    const lookup = machine(["C:\\work\\node_modules\\.bin\\server.cmd"], { Path: "C:\\work\\node_modules\\.bin" });
    expect(spawnPlan("server", ["a&b"], "win32", lookup).args.at(-1)).toBe(
      '"C:\\work\\node_modules\\.bin\\server.cmd ^^^"a^^^&b^^^""',
    );
  });

  it("a command found nowhere is left as it is (spawn reports it missing); other platforms are unchanged", () => {
    expect(spawnPlan("nothere", ["x"], "win32", machine([]))).toEqual({
      file: "nothere",
      args: ["x"],
      verbatim: false,
    });
    expect(spawnPlan("npx", ["-y", "a&b"], "linux", machine([`${NODE}\\npx.cmd`]))).toEqual({
      file: "npx",
      args: ["-y", "a&b"],
      verbatim: false,
    });
  });

  it("a path with a folder is resolved against cwd, with PATHEXT added when it has no extension", () => {
    expect(resolveWindowsCommand(".\\bin\\serve", machine(["C:\\work\\bin\\serve.cmd"]))).toBe(
      "C:\\work\\bin\\serve.cmd",
    );
    expect(resolveWindowsCommand("bin/serve.cmd", machine(["C:\\work\\bin\\serve.cmd"]))).toBe(
      "C:\\work\\bin\\serve.cmd",
    );
  });
});
