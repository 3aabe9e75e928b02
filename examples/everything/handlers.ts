/**
 * Handlers of the conformance server contract (shared/notes/conformance.md §2 and §6). Texts, URIs and MIME types
 * are the ones the suite checks. Server→client requests go through the context, so the same handler works on the
 * handshake-era wire (real requests) and the stateless wire (multi round-trip input requests).
 */
import type { ContentBlock, RequestContext } from "@mcp-gen/runtime";
import type { ServerHandlers } from "./generated/index.ts";
import { PNG_BASE64, WAV_BASE64 } from "./media.ts";

const text = (value: string): { content: ContentBlock[] } => ({ content: [{ type: "text", text: value }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const image: ContentBlock = { type: "image", data: PNG_BASE64, mimeType: "image/png" };

async function askName(context: RequestContext): Promise<string> {
  const answer = await context.elicit(
    {
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { key: "user_name" },
  );
  return typeof answer.content?.["name"] === "string" ? answer.content["name"] : "stranger";
}

async function askCapital(context: RequestContext, maxTokens: number): Promise<string> {
  const reply = await context.createMessage({
    messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
    maxTokens,
  });
  const content = reply.content as { type?: string; text?: string };
  return content.type === "text" && typeof content.text === "string" ? content.text : JSON.stringify(reply.content);
}

export const handlers: ServerHandlers = {
  tools: {
    test_simple_text: () => text("This is a simple text response for testing."),
    test_image_content: () => ({ content: [image] }),
    test_audio_content: () => ({ content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }] }),
    test_embedded_resource: () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
    test_multiple_content_types: () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        image,
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: '{"test":"data","value":123}',
          },
        },
      ],
    }),
    async test_tool_with_logging(_input, context) {
      await context.log.info("Tool execution started");
      await sleep(50);
      await context.log.info("Tool processing data");
      await sleep(50);
      await context.log.info("Tool execution completed");
      return text("Logging test completed");
    },
    async test_tool_with_progress(_input, context) {
      for (const progress of [0, 50, 100]) {
        await context.reportProgress(progress, 100);
        if (progress < 100) await sleep(50);
      }
      return text("Progress test completed");
    },
    test_error_handling: () => ({
      isError: true,
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
    }),
    async test_sampling({ prompt }, context) {
      const reply = await context.createMessage({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const content = reply.content as { text?: unknown };
      return text(`LLM response: ${typeof content.text === "string" ? content.text : JSON.stringify(reply.content)}`);
    },
    async test_elicitation({ message }, context) {
      const answer = await context.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return text(`User response: ${JSON.stringify(answer)}`);
    },
    async test_elicitation_sep1034_defaults(_input, context) {
      const answer = await context.elicit({
        message: "Please review your details",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", default: "John Doe" },
            age: { type: "integer", default: 30 },
            score: { type: "number", default: 95.5 },
            status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", default: true },
          },
        },
      });
      return text(`Elicitation completed: ${JSON.stringify(answer)}`);
    },
    async test_elicitation_sep1330_enums(_input, context) {
      const answer = await context.elicit({
        message: "Pick some options",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
        },
      });
      return text(`Elicitation completed: ${JSON.stringify(answer)}`);
    },
    json_schema_2020_12_tool: (input) => text(`Received: ${JSON.stringify(input)}`),
    // SSE polling (SEP-1699): the answer's connection ends before the answer, which the client gets by resuming
    // with Last-Event-ID; where the transport cannot do that (stdio, stateless HTTP) the call simply answers.
    async test_reconnection(_input, context) {
      if (context.closeSseStream()) await sleep(200);
      return text("Reconnection test completed");
    },
    test_input_required_result_elicitation: async (_input, context) => text(`Hello, ${await askName(context)}!`),
    test_input_required_result_sampling: async (_input, context) =>
      text(`The model said: ${await askCapital(context, 100)}`),
    async test_input_required_result_list_roots(_input, context) {
      const { roots } = await context.listRoots();
      return text(`Roots: ${roots.map((r) => r.uri).join(", ") || "none"}`);
    },
    async test_input_required_result_request_state(_input, context) {
      const answer = await context.elicit({
        message: "Confirm?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      return text(answer.content?.["ok"] === true ? "Confirmed: state-ok" : "Not confirmed: state-ok");
    },
    async test_input_required_result_multiple_inputs(_input, context) {
      const [name, greeting, roots] = await Promise.all([
        askName(context),
        askCapital(context, 50),
        context.listRoots(),
      ]);
      return text(`Hello, ${name}! ${greeting} (${roots.roots.length} roots)`);
    },
    async test_input_required_result_multi_round(_input, context) {
      const name = await askName(context);
      const colour = await context.elicit({
        message: "Step 2: What is your favorite color?",
        requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
      });
      return text(`${name} likes ${String(colour.content?.["color"] ?? "no colour")}`);
    },
    async test_input_required_result_capabilities(_input, context) {
      const parts: string[] = [];
      if (context.clientCapabilities["elicitation"]) parts.push(`name: ${await askName(context)}`);
      if (context.clientCapabilities["sampling"]) parts.push(`model: ${await askCapital(context, 50)}`);
      return text(parts.length > 0 ? parts.join("; ") : "The client declared no capabilities to ask with");
    },
    // The runtime seals requestState with an HMAC; a tampered one is rejected (-32602) before this runs again.
    test_input_required_result_tampered_state: async (_input, context) => text(`Hello, ${await askName(context)}!`),
    test_missing_capability: async (_input, context) => text(`The model said: ${await askCapital(context, 50)}`),
    test_streaming_elicitation: async (_input, context) => text(`Hello, ${await askName(context)}!`),
    test_custom_header_echo: ({ region, query }) =>
      text(`region=${region}${query === undefined ? "" : ` query=${query}`}`),
    async test_logging_tool(_input, context) {
      await context.log.info("test_logging_tool ran");
      return text("Logged (if the client asked for logs)");
    },
  },
  resources: {
    "test://static-text": (uri) => ({
      contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
    "test://static-binary": (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: PNG_BASE64 }] }),
    "test://watched-resource": (uri) => ({
      contents: [{ uri, mimeType: "text/plain", text: "Watched resource content." }],
    }),
  },
  resourceTemplates: {
    "template-data": ({ id }, uri) => ({
      contents: [
        {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  },
  prompts: {
    test_simple_prompt: () => ({
      messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
    }),
    test_prompt_with_arguments: ({ arg1, arg2 }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
    test_prompt_with_embedded_resource: ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
    test_prompt_with_image: () => ({
      messages: [
        { role: "user", content: image },
        { role: "user", content: { type: "text", text: "Please analyze the image above." } },
      ],
    }),
    async test_input_required_result_prompt(_args, context) {
      const answer = await context.elicit({
        message: "What context should the prompt use?",
        requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
      });
      const given = String(answer.content?.["context"] ?? "none");
      return { messages: [{ role: "user", content: { type: "text", text: `Answer with this context: ${given}` } }] };
    },
  },
  completions: {
    prompts: {
      test_prompt_with_arguments: { arg1: (value) => ["test", "testing", "tested"].filter((v) => v.startsWith(value)) },
    },
    resourceTemplates: { "template-data": { id: (value) => ["123", "456"].filter((v) => v.startsWith(value)) } },
  },
};
