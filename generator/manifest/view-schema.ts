/**
 * The manifest's MCP Apps part (`io.modelcontextprotocol/ui`, ext-apps 2026-01-26): the `ui` list of views (each an
 * HTML file the generated server serves as a `ui://` resource, with the resource's `_meta.ui`: `csp`,
 * `permissions`, `domain`, `prefersBorder`) and a tool's `ui` (the view it links to and who may call it). The
 * pairing of the two is checked by `lower-views.ts`.
 */
import { z } from "zod";

/**
 * A CSP source the host writes into the view's policy: a scheme and host (a leading `*.` wildcard allowed) with an
 * optional port. Nothing else, so no declared value can add a directive or a keyword (`;`, quotes, spaces).
 */
export const CSP_ORIGIN_PATTERN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:(\d{1,5}|\*))?$/;

const Origins = (what: string) =>
  z
    .array(
      z
        .string()
        .regex(
          CSP_ORIGIN_PATTERN,
          "not an origin: write scheme://host[:port] (https, http, wss or ws; *.host allowed)",
        ),
    )
    .exactOptional()
    .describe(what);

const Csp = z.strictObject({
  connectDomains: Origins("Origins the view may fetch from or open sockets to (CSP connect-src). Default: none."),
  resourceDomains: Origins(
    "Origins of the view's scripts, styles, images, fonts and media (CSP script-src, style-src, img-src, font-src, media-src). Default: none.",
  ),
  frameDomains: Origins("Origins the view may embed in nested frames (CSP frame-src). Default: none."),
  baseUriDomains: Origins("Origins the document's base URI may name (CSP base-uri). Default: the view's own."),
});

/** The browser features a view may ask the host for (Permission Policy; a host may refuse). */
export const VIEW_PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

/** The name pattern of a view: it becomes part of its `ui://` URI and of generated names. */
export const VIEW_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const View = z.strictObject({
  name: z
    .string()
    .regex(VIEW_NAME_PATTERN, "invalid view name: a letter, then up to 63 letters, digits, _ or -")
    .describe("The view's name, which tools link to with `ui.view`."),
  file: z
    .string()
    .min(1)
    .describe(
      "The view's HTML file (a single-file built bundle included), relative to the manifest; its text is served as the resource's content.",
    ),
  uri: z
    .string()
    .regex(/^ui:\/\/[^\s]+$/, "a view's uri is a ui:// URI")
    .exactOptional()
    .describe("The resource's URI. Default: ui://<server name>/<view name>."),
  title: z.string().exactOptional(),
  description: z.string().exactOptional(),
  csp: Csp.exactOptional().describe(
    "The origins the view needs beyond its own document; the host's policy denies everything else.",
  ),
  permissions: z
    .array(z.enum(VIEW_PERMISSIONS))
    .exactOptional()
    .describe("Browser features the view asks for (camera, microphone, geolocation, clipboardWrite)."),
  prefersBorder: z
    .boolean()
    .exactOptional()
    .describe("Whether the view wants the host to draw a border and background around it. Default: the host decides."),
  domain: z
    .string()
    .regex(/^[^\s;,'"]+$/, "a domain is one host name, without spaces, quotes, ; or ,")
    .exactOptional()
    .describe("A dedicated sandbox origin for the view, in the host's format (host-specific)."),
});

/** Who may call a tool: the model (`model`), the views of this server (`app`). */
export const VISIBILITY = ["model", "app"] as const;

export const ToolUi = z.strictObject({
  view: z
    .string()
    .min(1)
    .exactOptional()
    .describe("The view (a name from `ui`) the host renders for this tool's calls; the view may call it back."),
  visibility: z
    .array(z.enum(VISIBILITY))
    .min(1)
    .exactOptional()
    .describe(
      "Who may call the tool: model (listed to the model), app (callable by the views of this server). Default: both.",
    ),
});

export type ManifestView = z.infer<typeof View>;
export type ManifestToolUi = z.infer<typeof ToolUi>;
export type ManifestVisibility = (typeof VISIBILITY)[number];
