/**
 * The `${…}` placeholders of host configs, filled in at connect time only (never written anywhere):
 *
 * - `${env:NAME}` (VS Code, Cursor) and `${NAME}`, `${NAME:-default}` (Claude Code): the environment variable;
 * - `${input:id}` (VS Code `inputs`): the caller's value for `id`, else the variable `MCP_INPUT_<ID>` (upper case,
 *   other characters as `_`): a CLI cannot prompt the way an editor does;
 * - `${workspaceFolder}`, `${userHome}`.
 *
 * A placeholder with no value is an error naming it (a server started with an empty token fails later, less
 * clearly). Every value filled in is returned as a secret, so callers can redact it from anything they print.
 * The generated index (`index-emit.ts`) carries the same rules for `connect()`.
 */

export interface PlaceholderContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputs: Readonly<Record<string, string>>;
  readonly workspaceFolder: string;
  readonly userHome: string;
}

export interface Expanded {
  readonly value: string;
  /** Placeholders that had no value (`env:TOKEN`, `input:api-key`). */
  readonly missing: readonly string[];
  /** The values substituted from the environment or inputs. */
  readonly secrets: readonly string[];
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** The environment variable that supplies VS Code input `id` outside an editor. */
export function inputVariable(id: string): string {
  return `MCP_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

export function hasPlaceholder(text: string): boolean {
  return /\$\{[^}]*\}/.test(text);
}

function lookup(body: string, context: PlaceholderContext): { value?: string; secret: boolean } {
  if (body === "workspaceFolder") return { value: context.workspaceFolder, secret: false };
  if (body === "userHome") return { value: context.userHome, secret: false };
  if (body.startsWith("env:")) return { ...optional(context.env[body.slice(4)]), secret: true };
  if (body.startsWith("input:")) {
    const id = body.slice(6);
    return { ...optional(context.inputs[id] ?? context.env[inputVariable(id)]), secret: true };
  }
  const withDefault = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(body);
  if (withDefault) return { ...optional(context.env[withDefault[1]!] ?? withDefault[2]), secret: true };
  return { secret: false };
}

const optional = (value: string | undefined): { value?: string } => (value === undefined ? {} : { value });

export function expandPlaceholders(text: string, context: PlaceholderContext): Expanded {
  const missing: string[] = [];
  const secrets: string[] = [];
  const value = text.replace(PLACEHOLDER, (whole, body: string) => {
    const found = lookup(body, context);
    if (found.value === undefined) {
      missing.push(body);
      return whole;
    }
    if (found.secret && found.value !== "") secrets.push(found.value);
    return found.value;
  });
  return { value, missing, secrets };
}
