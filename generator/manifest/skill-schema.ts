/**
 * The manifest's Skills part (`io.modelcontextprotocol/skills`, SEP-2640): the skill folders the generated server
 * serves, read and checked at generation time (`pipeline/skill-folders.ts`, lowered by `lower-skills.ts`), and
 * whether it serves `resources/directory/read`.
 */
import { z } from "zod";

/**
 * A skill-path prefix: `/`-separated segments of URI-safe characters (unreserved, sub-delims, `:` `@`), none empty
 * and none `.` or `..`; the first is the URI's authority, so it is a reg-name (no `:` or `@`).
 */
export const SKILL_PREFIX_PATTERN =
  /^(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=]+(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)*$/;

const SkillFolder = z.union([
  z.string().min(1).describe("A skill folder (holding SKILL.md), relative to the manifest."),
  z.strictObject({
    path: z.string().min(1).describe("A skill folder (holding SKILL.md), relative to the manifest."),
    prefix: z
      .string()
      .regex(SKILL_PREFIX_PATTERN, "not a skill-path prefix: write /-separated URI segments (acme/billing)")
      .exactOptional()
      .describe(
        "Segments before the skill's name in its skill path: prefix acme/billing serves folder refunds as skill://acme/billing/refunds/SKILL.md. Default: none.",
      ),
  }),
]);

export const Skills = z.strictObject({
  folders: z
    .array(SkillFolder)
    .min(1)
    .describe(
      "The skill folders served: each a folder whose SKILL.md frontmatter has name (the folder's name) and description; nested skills inside are served too.",
    ),
  directoryRead: z
    .boolean()
    .exactOptional()
    .describe("Serve resources/directory/read (advertised as directoryRead: true). Default: false."),
});

export type ManifestSkills = z.infer<typeof Skills>;
export type ManifestSkillFolder = z.infer<typeof SkillFolder>;
