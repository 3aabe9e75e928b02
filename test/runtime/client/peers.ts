/** Peer servers for the client tests: real child processes, started and awaited by what they print. */
import { spawn, type ChildProcess } from "node:child_process";
import { nodeArgs } from "../../fixture-run.ts";

const children: ChildProcess[] = [];

/** Starts `node <args>` and resolves with the first match of `pattern` in its stdout or stderr. */
export function startPeer(
  args: readonly string[],
  pattern: RegExp,
  env: Record<string, string> = {},
): Promise<RegExpExecArray> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    const look = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = pattern.exec(seen);
      if (match) resolve(match);
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${seen}`)));
  });
}

/** A TypeScript fixture that prints `listening <port>`: its MCP endpoint URL. */
export async function startFixture(fixture: string, ...args: string[]): Promise<string> {
  const [, port] = await startPeer([...nodeArgs(fixture), ...args], /listening (\d+)/);
  return `http://127.0.0.1:${port}/mcp`;
}

/** Kills every peer started so far (afterEach). */
export function killPeers(): void {
  for (const child of children.splice(0)) child.kill("SIGKILL");
}
