/** Handlers of the edge harness's signup example (mcp.yaml here); deterministic, so tests can check the answers. */
import type { ServerHandlers } from "./generated/index.ts";

export const handlers: ServerHandlers = {
  tools: {
    register: ({ email }) => ({ structuredContent: { id: "123e4567-e89b-12d3-a456-426614174000", email } }),
    async ask_model({ question }, context) {
      const reply = await context.createMessage({
        messages: [{ role: "user", content: { type: "text", text: question } }],
        maxTokens: 50,
      });
      const content = reply.content as { text?: unknown };
      return { content: [{ type: "text", text: `model says: ${String(content.text)}` }] };
    },
    async ask_user(_input, context) {
      const answer = await context.elicit({
        message: "Your nickname?",
        requestedSchema: { type: "object", properties: { nickname: { type: "string" } }, required: ["nickname"] },
      });
      return { content: [{ type: "text", text: `user ${answer.action}: ${String(answer.content?.["nickname"])}` }] };
    },
  },
  resources: {
    "edge://about": (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "signup example" }] }),
  },
};
