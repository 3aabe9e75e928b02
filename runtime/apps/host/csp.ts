/**
 * The Content Security Policy and Permissions Policy a host applies to a view (apps.mdx, "UI Resource Format: Host
 * Behavior" and "Security Implications: Content Security Policy Enforcement"). Deny by default: with no `csp` the
 * policy is the spec's restrictive default; each declared domain is added to the directives it maps to and nowhere
 * else; `frame-src 'none'`, `object-src 'none'` and `base-uri 'self'` close what `default-src` does not (the sandbox
 * rules of the spec ask for all three). A domain is read from the server, so it reaches the policy only when it is one
 * source expression (a scheme, a host with an optional `*.` and port, a path): anything else is left out and reported,
 * which only narrows the policy. Pure: no DOM, no Node.
 */
import type { McpUiResourceCsp, McpUiResourcePermissions } from "../../generated/extensions/apps/types.ts";

/** The policy, and the declared entries it left out (not one source expression) for the host to report. */
export interface ViewCsp {
  /** The header value (also what a `<meta http-equiv="Content-Security-Policy">` holds), directives `; `-joined. */
  readonly policy: string;
  readonly ignored: readonly string[];
}

/**
 * One source: `https:`-like scheme (optional), a host (letters, digits, `-`, `.`; an optional leading `*.`), an
 * optional port (digits or `*`) and path; or a bare scheme such as `wss:`. No quotes, spaces, `;` or `,`, so a value
 * cannot end its directive or add a keyword such as `'unsafe-eval'`.
 */
const SOURCE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[A-Za-z0-9\-._~%!$&()*+=:@/]*)?$|^[a-z][a-z0-9+.-]*:$/i;

function sources(declared: readonly unknown[] | undefined, ignored: string[]): string[] {
  const kept: string[] = [];
  for (const entry of declared ?? []) {
    if (typeof entry === "string" && SOURCE.test(entry)) {
      if (!kept.includes(entry)) kept.push(entry);
    } else ignored.push(typeof entry === "string" ? entry : JSON.stringify(entry));
  }
  return kept;
}

/** `name` with the default sources plus the declared ones; `'none'` when there is nothing to allow. */
function directive(name: string, defaults: readonly string[], declared: readonly string[]): string {
  const all = [...defaults, ...declared];
  return `${name} ${all.length > 0 ? all.join(" ") : "'none'"}`;
}

/** The CSP for a view whose resource declares `csp` (`_meta.ui.csp` of its `resources/read` content). */
export function viewCsp(csp: McpUiResourceCsp | undefined): ViewCsp {
  const ignored: string[] = [];
  const declared = (csp ?? {}) as Readonly<Record<string, unknown>>;
  const list = (key: keyof McpUiResourceCsp) => {
    const value = declared[key];
    if (value !== undefined && !Array.isArray(value)) {
      ignored.push(`${key}: ${JSON.stringify(value)}`);
      return [];
    }
    return sources(value, ignored);
  };
  const resources = list("resourceDomains");
  const connect = list("connectDomains");
  const frames = list("frameDomains");
  const bases = list("baseUriDomains");
  const directives = [
    "default-src 'none'",
    directive("script-src", ["'self'", "'unsafe-inline'"], resources),
    directive("style-src", ["'self'", "'unsafe-inline'"], resources),
    directive("img-src", ["'self'", "data:"], resources),
    ...(resources.length > 0 ? [directive("font-src", [], resources)] : []),
    directive("media-src", ["'self'", "data:"], resources),
    directive("connect-src", [], connect),
    directive("frame-src", [], frames),
    "object-src 'none'",
    bases.length > 0 ? directive("base-uri", [], bases) : "base-uri 'self'",
  ];
  return { policy: directives.join("; "), ignored };
}

/** Permission Policy features by the `permissions` key that requests them. */
const FEATURES: Readonly<Record<keyof McpUiResourcePermissions, string>> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
};

/**
 * The iframe `allow` attribute for the permissions a view requests (and the host grants: pass only those), e.g.
 * `"camera; clipboard-write"`; empty when none.
 */
export function viewAllowAttribute(permissions: McpUiResourcePermissions | undefined): string {
  const requested = (permissions ?? {}) as Readonly<Record<string, unknown>>;
  return Object.entries(FEATURES)
    .filter(([key]) => typeof requested[key] === "object" && requested[key] !== null)
    .map(([, feature]) => feature)
    .join("; ");
}
