/**
 * The `text` of a tool or prompt content block, or of a resource's contents item, when it has one. The runtime types
 * these as unions over the built-in revisions, so tests narrow with `"text" in item` instead of indexing blindly.
 */
import type { ContentBlock, ResourceContents } from "../runtime/index.ts";

export function textOf(item: ContentBlock | ResourceContents | undefined): string | undefined {
  return item !== undefined && "text" in item ? item.text : undefined;
}
