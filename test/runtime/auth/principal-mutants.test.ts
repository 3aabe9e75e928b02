/**
 * The caller rule (runtime/transport/principal.ts, re-exported by runtime/auth/principal.ts) where principal.test.ts
 * left a mutant alive: an `iss` claim that is not a string qualifies nobody, exactly like a missing one.
 *
 * Equivalent mutant left alive: `authInfo.claims?.["iss"]` → `claims["iss"]`, reached only after `claims.sub` was read.
 */
import { describe, expect, it } from "vitest";
import { principalOf } from "../../../runtime/auth/principal.ts";

describe("principalOf with odd claims", () => {
  it("treats a non-string issuer as no issuer", () => {
    const unqualified = 'sub:[null,"alice"]';
    for (const iss of [42, true, { url: "https://as.test" }, ["https://as.test"], null])
      expect(principalOf({ token: "t", claims: { sub: "alice", iss } }), JSON.stringify(iss)).toBe(unqualified);
  });
});
