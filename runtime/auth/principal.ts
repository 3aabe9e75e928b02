/**
 * "Who is the caller" for the auth layer's users. The rule itself lives in `transport/principal.ts`, below
 * `server/`, which binds `requestState` to it; this is the same function, not a second rule.
 */
export { principalOf } from "../transport/principal.ts";
