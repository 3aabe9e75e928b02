/**
 * The package's built-in revisions as descriptors, oldest first: `new McpServer({ info, revisions: builtinRevisions })`
 * serves every one of them. A plain value, nothing registers when it is imported; but whatever references it bundles
 * every built-in revision's bindings, so code that serves fewer names only those
 * (`import { revision } from "@mcp-gen/runtime/protocol/2025-11-25"`).
 */
import { revisionDescriptors } from "../generated/protocol/revisions.ts";
import type { RevisionDescriptor } from "./method-type.ts";

export const builtinRevisions: readonly RevisionDescriptor[] = revisionDescriptors;
