/**
 * The served extensions' methods, indexed once per server definition: each extension's tokens (as its feature
 * admits them), the implementation its feature gives, and which extension a client must declare to call one.
 */
import { hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import { extensionApplies } from "../protocol/extensions.ts";
import type { AnyMethodType, AnyRequestType, MethodTable } from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import type { ServerExtension, ServerFeature } from "./extension.ts";
import type { MethodImpl } from "./method-env.ts";

interface ExtensionMethod {
  readonly id: string;
  /** A client must declare the extension to call the method (`ServerExtension.clientDeclares`). */
  readonly declared: boolean;
  readonly token: AnyMethodType;
  readonly impl: MethodImpl | undefined;
}

export class ExtensionMethods {
  private readonly byMethod = new Map<string, ExtensionMethod>();
  /** What the served extensions do here (`ServerExtension.serve`), in the order they are listed. */
  readonly features: readonly ServerFeature[];

  constructor(
    private readonly extensions: readonly ServerExtension[],
    revisions: readonly RevisionProfile[],
    onDiagnostic: ((message: string) => void) | undefined,
  ) {
    const features: ServerFeature[] = [];
    for (const extension of extensions) {
      const feature = extension.serve?.({ revisions, onDiagnostic });
      if (feature) features.push(feature);
      const tokens = Array.isArray(extension.methods)
        ? extension.methods
        : Object.values(extension.methods as MethodTable);
      for (const token of tokens as readonly AnyMethodType[]) {
        const previous = this.byMethod.get(token.method);
        if (previous)
          throw new Error(`extension method ${token.method} is declared by both ${previous.id} and ${extension.id}`);
        const admitted = token.kind === "request" && feature?.admit ? feature.admit(token) : token;
        const served = feature?.requests && Object.hasOwn(feature.requests, token.method) ? feature.requests : {};
        const request = served[token.method];
        const impl: MethodImpl | undefined = request && ((env) => request(env.params, env.context));
        const declared = extension.clientDeclares !== false;
        this.byMethod.set(token.method, { id: extension.id, declared, token: admitted, impl });
      }
    }
    this.features = features;
  }

  /** The built-in implementation of an extension method, from its feature. */
  implementationOf(method: string): MethodImpl | undefined {
    return this.byMethod.get(method)?.impl;
  }

  /** See `SessionDefinition.extensionToken`. */
  token(method: string, clientCapabilities: Capabilities, version?: string): AnyMethodType | undefined {
    const entry = this.byMethod.get(method);
    if (!entry || (version !== undefined && !this.defined(entry.id, version))) return undefined;
    return !entry.declared || hasCapability(clientCapabilities, ["extensions", entry.id]) ? entry.token : undefined;
  }

  request(method: string, clientCapabilities: Capabilities, version?: string): AnyRequestType | undefined {
    const token = this.token(method, clientCapabilities, version);
    return token?.kind === "request" ? token : undefined;
  }

  /** See `SessionDefinition.undeclaredExtension`. */
  undeclared(method: string, clientCapabilities: Capabilities, version: string): string | undefined {
    const entry = this.byMethod.get(method);
    if (!entry || !entry.declared || !this.defined(entry.id, version)) return undefined;
    return hasCapability(clientCapabilities, ["extensions", entry.id]) ? undefined : entry.id;
  }

  private defined(id: string, version: string): boolean {
    const extension = this.extensions.find((e) => e.id === id);
    return extension !== undefined && extensionApplies(extension, version);
  }
}
