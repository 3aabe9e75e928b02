/**
 * The kinds of contract change `check --live` reports, each with its class: **breaking** (code written against the
 * pinned contract may fail), **additive** (new things; nothing written against the pin breaks) or **descriptive**
 * (text a model reads changed: descriptions, titles, annotations, instructions — how tool poisoning arrives, so it
 * is flagged on its own). `info` changes (server version, revision) are reported but never fail a check.
 */

export type ChangeClass = "breaking" | "descriptive" | "additive" | "info";

export interface Rule {
  readonly class: ChangeClass;
  readonly summary: string;
}

export const RULES = {
  "tool-removed": { class: "breaking", summary: "A pinned tool is gone" },
  "tool-added": { class: "additive", summary: "A new tool" },
  "input-required-added": { class: "breaking", summary: "A tool input is newly required" },
  "input-removed": { class: "breaking", summary: "A tool input is gone" },
  "input-type-changed": { class: "breaking", summary: "A tool input's schema changed" },
  "input-schema-changed": { class: "breaking", summary: "A tool's input schema changed" },
  "input-optional-added": { class: "additive", summary: "A new optional tool input" },
  "input-made-optional": { class: "additive", summary: "A required tool input became optional" },
  "output-type-changed": { class: "breaking", summary: "A tool's output schema changed" },
  "description-changed": { class: "descriptive", summary: "A description or title changed" },
  "annotations-changed": { class: "descriptive", summary: "Annotations changed" },
  "presentation-changed": { class: "descriptive", summary: "Icons or other presentation changed" },
  "instructions-changed": { class: "descriptive", summary: "The server's instructions changed" },
  "resource-removed": { class: "breaking", summary: "A pinned resource is gone" },
  "resource-added": { class: "additive", summary: "A new resource" },
  "resource-changed": { class: "breaking", summary: "A resource's URI or media type changed" },
  "template-removed": { class: "breaking", summary: "A pinned resource template is gone" },
  "template-added": { class: "additive", summary: "A new resource template" },
  "template-changed": { class: "breaking", summary: "A resource template's URI template or media type changed" },
  "prompt-removed": { class: "breaking", summary: "A pinned prompt is gone" },
  "prompt-added": { class: "additive", summary: "A new prompt" },
  "argument-required-added": { class: "breaking", summary: "A prompt argument is newly required" },
  "argument-removed": { class: "breaking", summary: "A prompt argument is gone" },
  "argument-optional-added": { class: "additive", summary: "A new optional prompt argument" },
  "argument-made-optional": { class: "additive", summary: "A required prompt argument became optional" },
  "listed-twice": {
    class: "breaking",
    summary: "A name is listed more than once: a client may use any of the copies",
  },
  "execution-changed": {
    class: "breaking",
    summary: "How a tool's calls run changed (execution.taskSupport): a call form that worked is refused",
  },
  "execution-widened": {
    class: "additive",
    summary: "A tool's calls may now run as a task or directly (execution.taskSupport became optional)",
  },
  "meta-changed": {
    class: "descriptive",
    summary: "Metadata a host reads changed (_meta, e.g. ui.resourceUri: the app a host renders)",
  },
  "definition-changed": { class: "breaking", summary: "A definition differs from its pin in a way not classified" },
  "server-changed": { class: "info", summary: "The server reports another name, version or protocol revision" },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export interface Change {
  readonly server: string;
  readonly rule: RuleId;
  readonly class: ChangeClass;
  /** `tools/echo`, `prompts/plan`, `resources/<uri>`, `server`. */
  readonly where: string;
  readonly message: string;
}

/** Exit code bits of `check --live`: OR-ed together; 0 when every server matches its pins. */
export const EXIT_BITS: Readonly<Record<Exclude<ChangeClass, "info"> | "error", number>> = {
  error: 1,
  breaking: 2,
  descriptive: 4,
  additive: 8,
};

export function change(server: string, rule: RuleId, where: string, message: string): Change {
  return { server, rule, class: RULES[rule].class, where, message };
}
