/**
 * The harness of the MCP Apps browser tests: headless Debian Chromium through playwright-core (a fresh profile per
 * launch), a process that prints its URL (a server over Streamable HTTP), a loopback page server that can put an MCP
 * endpoint of another process on the page's own origin (browser bundles: examples/apps/build.ts). Every wait is
 * on an event, bounded generously for a loaded 2-core machine. Add a case: launch, serve or start, `page.goto`,
 * assert on the DOM (`frameLocator` for what a view renders), `screenshot(page, name)`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const REPO = path.resolve(import.meta.dirname, "../..");
/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
/** Where screenshots go (git-ignored: .tmp/). */
export const SCREENSHOTS = path.join(REPO, ".tmp/screenshots");
/** The bound of one wait in a browser test: generous, the machine is shared. */
export const BROWSER_WAIT_MS = 60_000;

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  /** A new page whose console errors and uncaught exceptions are collected in `errors`. */
  newPage(): Promise<{ readonly page: Page; readonly errors: string[] }>;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh user-data-dir, removed again by `close()`. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: BROWSER_WAIT_MS,
  });
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`);
      });
      return { page, errors };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as SCREENSHOTS/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface UrlProcess {
  /** The first line of the process's stdout that matched. */
  readonly url: string;
  readonly child: ChildProcess;
  /** What the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` (in a process group of its own) and resolves once it prints a URL (`http://…`) on stdout;
 * rejects, with its stderr, when it exits first or prints none within `timeoutMs`.
 */
export function startUrlProcess(
  command: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number } = {},
): Promise<UrlProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so stop() ends what it started too (npm run → sh → tsx → node).
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        child.kill("SIGTERM");
      }
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(" ")} printed no URL in ${options.timeoutMs ?? 120_000} ms\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^(https?:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, child, stderr: () => stderr, stop });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited (${code ?? signal}) before printing a URL\n${stderr}`));
    });
  });
}

export interface StaticPage {
  readonly type: string;
  readonly body: string;
}

export interface PageServer {
  /** The origin with a trailing slash, e.g. http://127.0.0.1:41234/. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `pages` (path → content) on a loopback port; with `mcp`, requests for /mcp go to that endpoint (another
 * process's Streamable HTTP URL), streamed both ways, so a page's MCP client talks to it from its own origin (no
 * CORS). The proxy is that origin's server: it drops the browser's Origin and sends the target's Host.
 */
export async function servePages(
  pages: Readonly<Record<string, StaticPage>>,
  options: { readonly mcp?: string } = {},
): Promise<PageServer> {
  const target = options.mcp === undefined ? undefined : new URL(options.mcp);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (target && url.pathname === "/mcp") return proxy(req, res, target);
    const page = req.method === "GET" ? pages[url.pathname] : undefined;
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    res.writeHead(200, { "content-type": page.type, "cache-control": "no-store" }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function proxy(req: IncomingMessage, res: ServerResponse, target: URL): void {
  const { origin: _origin, host: _host, ...headers } = req.headers;
  const forwarded = request(
    target,
    { method: req.method ?? "GET", headers: { ...headers, host: target.host } },
    (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`proxy: ${error.message}`);
  });
  res.on("close", () => forwarded.destroy());
  req.pipe(forwarded);
}
