/**
 * The client the conformance suite drives (`<command> <serverUrl>`, scenario in MCP_CONFORMANCE_SCENARIO, extra data in
 * MCP_CONFORMANCE_CONTEXT): the runtime's `McpClient` with **default options** over `StreamableHttpClientTransport`,
 * doing what a generic host does — connect (negotiating the revision itself), list tools, call them (with the
 * arguments the context names, else with the required arguments each tool's schema asks for), and answer
 * elicitation/sampling/roots. With the Skills extension (`skillsClient()`) it lists the server's skills as a host
 * presenting its catalog does, reading no skill file (sep-2640-client-no-prefetch); only when a scenario stands for
 * the model asking for a skill (sep-2640-client-verify-*) does it load one: SKILL.md first, its other files only once
 * that read verified. Exits non-zero on any error; a skill refused by verification is reported, not an error.
 */
import { enterpriseAssertion, oauthFetch, type OAuthClientProvider } from "../runtime/auth/index.ts";
import { builtinRevisions, McpClient, type ElicitResult } from "../runtime/index.ts";
import { StreamableHttpClientTransport } from "../runtime/http/index.ts";
import { SkillVerificationError, skillsClient, skillsOf, type SkillsApi } from "../runtime/skills/index.ts";

interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}
interface ListedTool {
  readonly name: string;
  readonly inputSchema?: {
    readonly properties?: Record<string, { type?: unknown; default?: unknown }>;
    readonly required?: readonly string[];
  };
}

const url = process.argv.at(-1)!;
const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
const context = JSON.parse(process.env["MCP_CONFORMANCE_CONTEXT"] ?? "{}") as {
  toolCalls?: readonly ToolCall[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
};

/**
 * A headless OAuth provider as a CLI host would configure it: a Client ID Metadata Document URL, DCR metadata and a
 * redirect URL; the suite's authorization endpoint redirects at once, so "the user" is a fetch that reads `Location`.
 * Credentials the scenario hands over (pre-registration, client credentials) are used as given.
 */
function oauthProvider(): OAuthClientProvider {
  if (context.valid_jwt !== undefined)
    return { jwtBearer: { client_id: context.client_id ?? "workload", assertion: () => context.valid_jwt! } };
  if (context.idp_id_token !== undefined)
    return {
      jwtBearer: {
        client_id: context.client_id!,
        ...(context.client_secret ? { client_secret: context.client_secret } : {}),
        assertion: enterpriseAssertion({
          idpTokenEndpoint: context.idp_token_endpoint!,
          idpIssuer: context.idp_issuer!,
          idpClientId: context.idp_client_id!,
          idToken: () => context.idp_id_token!,
        }),
      },
    };
  const credentials = context.client_id !== undefined && scenario.includes("client-credentials");
  return {
    clientMetadata: { client_name: "mcp-gen conformance client" },
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    redirectUrl: "http://127.0.0.1:4917/callback",
    ...(context.client_id !== undefined && !credentials
      ? {
          clientInformation: {
            client_id: context.client_id,
            ...(context.client_secret ? { client_secret: context.client_secret } : {}),
          },
        }
      : {}),
    ...(credentials
      ? {
          clientCredentials: {
            client_id: context.client_id!,
            ...(context.client_secret ? { client_secret: context.client_secret } : {}),
            ...(context.private_key_pem
              ? { privateKey: { key: context.private_key_pem, alg: context.signing_algorithm ?? "ES256" } }
              : {}),
          },
        }
      : {}),
    async authorize(url: URL): Promise<URL> {
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
      return new URL(location, url);
    },
  };
}

/** A value of the schema's type (numbers for `number`, the default where one is given). */
function sample(schema: { type?: unknown; default?: unknown } | undefined): unknown {
  if (schema && "default" in schema) return schema.default;
  switch (schema?.type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "conformance";
  }
}

function argumentsFor(tool: ListedTool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema?.required ?? []) args[name] = sample(tool.inputSchema?.properties?.[name]);
  return args;
}

/**
 * Loads the first listed skill as a host does once the model asks for it: SKILL.md, then (verified) the rest. A file
 * that fails verification stops the load: its content and the skill's other files are never used.
 */
async function loadFirstSkill(skills: SkillsApi): Promise<void> {
  const [entry] = (await skills.list()).skills;
  if (!entry) return;
  const files = Array.isArray(entry.resources) ? entry.resources.map((r) => r.uri) : [];
  try {
    await skills.read(entry.uri);
    for (const uri of files.filter((f) => f !== entry.uri)) await skills.read(uri);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    console.error(`conformance client (${scenario}): skill refused: ${error.message}`);
  }
}

async function main(): Promise<void> {
  const client = new McpClient({
    revisions: builtinRevisions,
    info: { name: "mcp-gen-conformance-client", version: "1.0.0" },
    extensions: [skillsClient({ server: "conformance-server" })],
    handlers: {
      // Accept with nothing filled in: the runtime's SEP-1034 defaults complete the form.
      elicitation: (): ElicitResult => ({ action: "accept", content: {} }),
      sampling: (params) => ({
        role: "assistant",
        content: { type: "text", text: `answer to ${params.messages.length} message(s)` },
        model: "conformance",
      }),
      roots: () => ({ roots: [{ uri: "file:///conformance", name: "conformance" }] }),
    },
  });
  const auth = scenario.startsWith("auth/") ? { fetch: oauthFetch(oauthProvider()) } : {};
  await client.connect(new StreamableHttpClientTransport(url, auth));
  try {
    const tools = client.serverCapabilities["tools"] ? ((await client.listTools()).tools as readonly ListedTool[]) : [];
    let calls: readonly ToolCall[] =
      context.toolCalls ?? tools.map((t) => ({ name: t.name, arguments: argumentsFor(t) }));
    if (scenario === "json-schema-2020-12-preservation") {
      // The scenario's contract: pass the inputSchema received for its focal tool back through its echo tool, so the
      // harness sees what survived the client's parsing.
      const focal = tools.find((t) => t.name.includes("2020_12"));
      calls = calls.map((c) =>
        c.arguments && "schema" in c.arguments ? { ...c, arguments: { schema: focal?.inputSchema ?? {} } } : c,
      );
    }
    for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
    const skills = skillsOf(client);
    if (skills.supported) {
      if (scenario.startsWith("sep-2640-client-verify-")) await loadFirstSkill(skills);
      else await skills.list(); // the catalog a host shows; no file is read until the model asks for a skill
    }
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
