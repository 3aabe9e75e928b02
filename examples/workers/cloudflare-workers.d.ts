/** The one piece of `cloudflare:workers` the example uses (the full types are in @cloudflare/workers-types). */
declare module "cloudflare:workers" {
  /** The worker's bindings: vars and secrets are strings. */
  export const env: Readonly<Record<string, string | undefined>>;
}
