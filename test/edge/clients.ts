/**
 * The official clients as a user would point them at a deployed server: SDK v1 (`@modelcontextprotocol/sdk`,
 * 2025-11-25) and SDK v2 (`@modelcontextprotocol/client`, pinned to 2026-07-28), both answering sampling and
 * elicitation. Both are wrapped in one small interface so each scenario runs against both.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export type ToolAnswer = {
  readonly isError: boolean;
  readonly text: string;
  readonly structuredContent: unknown;
};

export type EdgeClient = {
  readonly name: string;
  readonly protocolVersion: string | undefined;
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  readResource(uri: string): Promise<string>;
  /** The text of the prompt's messages. */
  getPrompt(name: string, args: Record<string, string>): Promise<string>;
  /** The values completing a prompt argument. */
  completePrompt(name: string, argument: string, value: string): Promise<string[]>;
  close(): Promise<void>;
};

/** What the clients answer when the server asks them. */
export const MODEL_ANSWER = "Paris is sunny";
export const NICKNAME = "ada";

const CAPABILITIES = { sampling: {}, elicitation: { form: {} } };
const sampled = () => ({
  role: "assistant" as const,
  content: { type: "text" as const, text: MODEL_ANSWER },
  model: "edge-test",
});
const elicited = () => ({ action: "accept" as const, content: { nickname: NICKNAME } });

type Content = readonly { type: string; text?: string }[];
const textOf = (content: unknown): string =>
  ((content ?? []) as Content).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");

type Messages = readonly { content: { type: string; text?: string } }[];
const promptText = (messages: Messages) => messages.map((m) => textOf([m.content])).join("\n");

const resourceText = (contents: readonly object[]) =>
  contents.map((c) => ("text" in c && typeof c.text === "string" ? c.text : "")).join("\n");

export async function connectV1(url: string): Promise<EdgeClient> {
  const client = new ClientV1({ name: "edge-v1", version: "1.0.0" }, { capabilities: CAPABILITIES });
  client.setRequestHandler(CreateMessageRequestSchema, async () => sampled());
  client.setRequestHandler(ElicitRequestSchema, async () => elicited());
  const transport = new TransportV1(new URL(url));
  await client.connect(transport);
  return {
    name: "SDK v1",
    protocolVersion: transport.protocolVersion,
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    async callTool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError === true,
        text: textOf(result.content),
        structuredContent: result.structuredContent,
      };
    },
    readResource: async (uri) => resourceText((await client.readResource({ uri })).contents),
    getPrompt: async (name, args) => promptText((await client.getPrompt({ name, arguments: args })).messages),
    completePrompt: async (name, argument, value) =>
      (await client.complete({ ref: { type: "ref/prompt", name }, argument: { name: argument, value } })).completion
        .values,
    close: () => client.close(),
  };
}

export async function connectV2(url: string): Promise<EdgeClient> {
  const client = new ClientV2(
    { name: "edge-v2", version: "2.0.0" },
    { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  client.setRequestHandler("sampling/createMessage", async () => sampled());
  client.setRequestHandler("elicitation/create", async () => elicited());
  await client.connect(new TransportV2(new URL(url)));
  return {
    name: "SDK v2",
    protocolVersion: client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    async callTool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError === true,
        text: textOf(result.content),
        structuredContent: result.structuredContent,
      };
    },
    readResource: async (uri) => resourceText((await client.readResource({ uri })).contents),
    getPrompt: async (name, args) => promptText((await client.getPrompt({ name, arguments: args })).messages),
    completePrompt: async (name, argument, value) =>
      (await client.complete({ ref: { type: "ref/prompt", name }, argument: { name: argument, value } })).completion
        .values,
    close: () => client.close(),
  };
}

export const CLIENTS = [
  ["SDK v1 (2025-11-25)", connectV1],
  ["SDK v2 (2026-07-28)", connectV2],
] as const;
