export * from "./bearer.ts";
export * from "./metadata.ts";
export * from "./principal.ts";
export * from "./jwt.ts";
export * from "./oauth-client/index.ts";
