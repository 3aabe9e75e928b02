/**
 * Reading a connected server into a manifest object, with what the read may have missed, and making its text safe
 * for a terminal line: shared by \`import\`, \`import --config\` and \`check --live\`.
 */
import type { McpClient } from "@mcp-gen/runtime";

/** Copies the listed keys that are present (manifest entries are strict: wire-only fields are left out). */
function pick(source: object, keys: readonly string[]): Record<string, unknown> {
  const fields = source as Readonly<Record<string, unknown>>;
  return Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]));
}

/** What a server serves, as listed: its identity and instructions, and every definition with every field. */
export interface Served {
  readonly server: Record<string, unknown>;
  readonly tools: readonly Record<string, unknown>[];
  readonly resources: readonly Record<string, unknown>[];
  readonly resourceTemplates: readonly Record<string, unknown>[];
  readonly prompts: readonly Record<string, unknown>[];
}

/** Reads everything the server offers, as served (the lists of the kinds it declares a capability for). */
export async function readServed(client: McpClient): Promise<Served> {
  const caps = client.serverCapabilities;
  const info = client.serverInfo ?? { name: "imported-server", version: "0.0.0" };
  const server = {
    ...pick(info, ["name", "version", "title", "description", "websiteUrl", "icons"]),
    ...(client.instructions ? { instructions: client.instructions } : {}),
  };
  const entries = (list: readonly object[]) => list as readonly Record<string, unknown>[];
  return {
    server,
    tools: entries(caps["tools"] ? await client.listAllTools() : []),
    resources: entries(caps["resources"] ? await client.listAllResources() : []),
    resourceTemplates: entries(caps["resources"] ? await client.listAllResourceTemplates() : []),
    prompts: entries(caps["prompts"] ? await client.listAllPrompts() : []),
  };
}

/** The manifest object of what a server serves: the fields the manifest defines (wire-only fields left out). */
export function manifestOf(served: Served, runtimeImport: string): Record<string, unknown> {
  const { server, tools, resources, resourceTemplates: templates, prompts } = served;
  const common = ["title", "description", "icons"];
  return {
    server,
    ...(tools.length
      ? { tools: tools.map((t) => pick(t, ["name", ...common, "inputSchema", "outputSchema", "annotations"])) }
      : {}),
    ...(resources.length
      ? { resources: resources.map((r) => pick(r, ["uri", "name", ...common, "mimeType", "size", "annotations"])) }
      : {}),
    ...(templates.length
      ? {
          resourceTemplates: templates.map((t) =>
            pick(t, ["uriTemplate", "name", ...common, "mimeType", "annotations"]),
          ),
        }
      : {}),
    ...(prompts.length
      ? {
          prompts: prompts.map((p) => ({
            ...pick(p, ["name", ...common]),
            ...(Array.isArray(p["arguments"])
              ? {
                  arguments: (p["arguments"] as object[]).map((a) =>
                    pick(a, ["name", "title", "description", "required"]),
                  ),
                }
              : {}),
          })),
        }
      : {}),
    generate: { out: "generated", runtimeImport },
  };
}

/** Reads everything the server offers into a manifest object. */
export async function readServer(client: McpClient, runtimeImport: string): Promise<Record<string, unknown>> {
  return manifestOf(await readServed(client), runtimeImport);
}

/** What a server may have kept from this import: kinds it declares no capability for, and client-gated lists. */
export function hiddenNotes(
  client: McpClient,
  options: { readonly capabilities: Readonly<Record<string, unknown>> },
): string[] {
  return [...capabilityNotes(client), clientNote(options.capabilities, client.revision ?? "?")];
}

/** The kinds a server declares no capability for (a server may declare one only for some clients or revisions). */
export function capabilityNotes(client: McpClient): string[] {
  const caps = client.serverCapabilities;
  const missing = (["tools", "resources", "prompts"] as const).filter((k) => !caps[k]);
  if (missing.length === 0) return [];
  return [
    `the server declares no ${missing.join(", ")} capabilit${missing.length > 1 ? "ies" : "y"}: ` +
      `no ${missing.join(", ")} read (a server may declare one only for some clients or revisions)`,
  ];
}

/** How the servers were read (the client's capabilities), at `revision` when one server was read. */
export function clientNote(capabilities: Readonly<Record<string, unknown>>, revision?: string): string {
  const declared = Object.keys(capabilities);
  const at = revision === undefined ? "" : ` at revision ${revision}`;
  return declared.length > 0
    ? `read as a client declaring ${declared.join(", ")}${at}`
    : `read as a client declaring no capabilities${at}; a server that lists some ` +
        `tools only to clients with sampling, elicitation or roots hid them: retry with --capabilities '{"sampling":{},"elicitation":{}}'`;
}

/** Text from a server, safe for one terminal line: control characters escaped, at most 300 characters. */
export function printable(text: string): string {
  const escaped = text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return escaped.length > 300 ? `${escaped.slice(0, 300)}…` : escaped;
}
