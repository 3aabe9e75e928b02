export { oauthFetch, type OAuthFetchOptions } from "./fetch.ts";
export { memoryStore, fileStore } from "./stores.ts";
export { loopbackAuthorizer, type LoopbackAuthorizer, type LoopbackOptions } from "./loopback.ts";
export { parseBearerChallenge, metadataCandidates, type BearerChallenge } from "./discovery.ts";
export type { Dpop } from "./dpop.ts";
export type { HttpLimits } from "./http.ts";
export * from "./types.ts";
export { enterpriseAssertion, type EnterpriseAssertionOptions } from "./grants.ts";
