/**
 * JSDoc → IR: the documentation (`IrDoc`) and the validation tags (`IrConstraints`) of one declaration or property.
 * Input: a ts-morph node that may carry JSDoc. Output: plain data. Tags that are constraints stay in the docs too,
 * so generated JSDoc reads like the spec's.
 */
import { Node } from "ts-morph";
import type { IrConstraints, IrDoc, IrDocTag, IrLocation } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";

export interface LoweredDoc {
  readonly doc?: IrDoc;
  readonly constraints?: IrConstraints;
  /** `@TJS-type`: the JSON type the spec's JSON Schema generator is told to use for this property. */
  readonly tjsType?: string;
}

const NUMERIC_TAGS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] as const;
const COUNT_TAGS = ["minLength", "maxLength", "minItems", "maxItems"] as const;

/** Reads the JSDoc closest to `node` (TypeScript attaches the last block before a declaration). */
export function lowerJsDoc(node: Node, location: IrLocation): LoweredDoc {
  if (!Node.isJSDocable(node)) return {};
  const block = node.getJsDocs().at(-1);
  if (!block) return {};
  const text = normalize(block.getDescription());
  const tags: IrDocTag[] = [];
  const constraints: Record<string, unknown> = {};
  let deprecated: string | undefined;
  let tjsType: string | undefined;
  for (const tag of block.getTags()) {
    const name = tag.getTagName();
    const body = normalize(tag.getCommentText() ?? "");
    if (name === "deprecated") {
      deprecated = body;
      continue;
    }
    tags.push({ name, text: body });
    if (name === "TJS-type") tjsType = body;
    else if (name === "format") constraints["format"] = body;
    else if (name === "nullable") constraints["nullable"] = true;
    else if (name === "pattern") constraints["pattern"] = body;
    else if ((NUMERIC_TAGS as readonly string[]).includes(name) || (COUNT_TAGS as readonly string[]).includes(name)) {
      const value = Number(body);
      if (body === "" || !Number.isFinite(value)) {
        throw new GeneratorError(`@${name} needs a number, got "${body}"`, location);
      }
      constraints[name] = value;
    }
  }
  const doc: IrDoc = {
    text,
    ...(deprecated !== undefined ? { deprecated } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
  const hasDoc = text !== "" || deprecated !== undefined || tags.length > 0;
  return {
    ...(hasDoc ? { doc } : {}),
    ...(Object.keys(constraints).length > 0 ? { constraints: constraints as IrConstraints } : {}),
    ...(tjsType !== undefined ? { tjsType } : {}),
  };
}

/** LF line endings, no trailing blanks: the same bytes whatever the input's line endings. */
function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
}
