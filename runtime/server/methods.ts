/**
 * What the server does for each client→server method. Params arrive validated against the revision's table;
 * results are era-neutral (the session adds `resultType`, caching hints and `_meta` where the revision has them).
 */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type {
  CompleteParams,
  ResourceDefinition,
  SubscriptionFilter,
  ToolDefinition,
} from "../protocol/builtin-types.ts";
import { formatIssues } from "../protocol/validation.ts";
import { ERA_RULES } from "../protocol/era.ts";
import { isThenable } from "../protocol/helper-types.ts";
import { ResourceNotFoundError } from "./errors.ts";
import { subscriptionLimit, tooManySubscriptions } from "./subscriptions.ts";
import { paginate } from "./pagination.ts";
import { checkToolOutput, toolError, toolFailure } from "./tool-result.ts";
import type { ListenAddition, ToolCallRunner } from "./extension.ts";
import type { MethodEnv, MethodImpl } from "./method-env.ts";
import type { Completer, RegisteredTemplate, RegisteredTool } from "./options.ts";

type Result = Record<string, unknown>;

const MAX_COMPLETIONS = 100;

function pageSize(env: MethodEnv): number {
  return env.server.options.pageSize ?? 100;
}

function listOf<T>(env: MethodEnv, items: readonly T[], key: string): Result {
  const { page, nextCursor } = paginate(items, env.params["cursor"], pageSize(env));
  return nextCursor === undefined ? { [key]: page } : { [key]: page, nextCursor };
}

/** Not async: a handler that answers synchronously is answered without another promise and microtask hop. */
function callTool(env: MethodEnv): Result | Promise<Result> {
  const name = env.params["name"] as string;
  const tool = env.server.tools.get(name);
  if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  // An extension may take the call over (e.g. run it as a task), or refuse it before the arguments are checked.
  const features = env.server.features;
  const runner = features.length === 0 ? undefined : takenOver(features, name, tool, env.context);
  let args: unknown = env.params["arguments"] ?? {};
  if (tool.validator) {
    const parsed = tool.validator.safeParse(args);
    if (!parsed.success)
      return toolError(`Invalid arguments for tool ${name}: ${formatIssues(parsed.error.issues, "arguments")}`);
    args = parsed.data;
  }
  if (!runner) return runInline(tool, args, env.context);
  const validated = args;
  return runner(
    (context) => invoke(tool, validated, context) as Result,
    () => runInline(tool, validated, env.context),
  );
}

/** The first feature's runner that takes the call of `tool` over (`ServerFeature.toolCall`). */
function takenOver(
  features: MethodEnv["server"]["features"],
  name: string,
  tool: RegisteredTool,
  context: MethodEnv["context"],
): ToolCallRunner | undefined {
  const target = { name, definition: tool.definition, extensions: tool.extensions };
  for (const feature of features) {
    const runner = feature.toolCall?.(target, context);
    if (runner) return runner;
  }
  return undefined;
}

/** The tool's handler, its result checked by the tool's output validator (inline and as a task alike). */
function invoke(
  tool: RegisteredTool,
  args: unknown,
  context: MethodEnv["context"],
): ReturnType<RegisteredTool["handler"]> {
  const outcome = tool.handler(args, context);
  const output = tool.output;
  if (!output) return outcome;
  const name = tool.definition.name;
  return isThenable(outcome)
    ? Promise.resolve(outcome).then((result) => checkToolOutput(name, result, output))
    : checkToolOutput(name, outcome, output);
}

/** The tool's handler on the request itself: its result, or its exception as an `isError` result. */
function runInline(tool: RegisteredTool, args: unknown, context: MethodEnv["context"]): Result | Promise<Result> {
  let outcome: ReturnType<RegisteredTool["handler"]>;
  try {
    outcome = invoke(tool, args, context);
  } catch (error) {
    return toolFailure(error);
  }
  return isThenable(outcome) ? Promise.resolve(outcome).then(asResult, toolFailure) : asResult(outcome);
}

function asResult(result: object): Result {
  return result as Result;
}

async function readResource(env: MethodEnv): Promise<Result> {
  const uri = env.params["uri"] as string;
  try {
    const exact = env.server.resources.get(uri);
    if (exact) return (await exact.handler(uri, env.context)) as Result;
    for (const feature of env.server.features) {
      const served = await feature.readResource?.(uri, env.context);
      if (served) return served;
    }
    for (const template of env.server.templates.values()) {
      const variables = template.match(uri);
      if (variables)
        return (await template.handler(uri, templateVariables(template, variables), env.context)) as Result;
    }
  } catch (error) {
    if (error instanceof ResourceNotFoundError) throw notFound(env, error.uri, error.message);
    throw error;
  }
  throw notFound(env, uri, `Resource not found: ${uri}`);
}

/**
 * `resources/subscribe`: only a URI the server serves (a registered resource, a feature's, a template's match) is
 * subscribed, resource-not-found otherwise; one more than the session's cap is refused (-31431).
 */
function subscribe(env: MethodEnv): Result {
  const uri = env.params["uri"] as string;
  const { resources, features, templates } = env.server;
  const served =
    resources.has(uri) ||
    features.some((feature) => feature.servesResource?.(uri) === true) ||
    [...templates.values()].some((template) => template.match(uri) !== undefined);
  if (!served) throw notFound(env, uri, `Resource not found: ${uri}`);
  const limit = subscriptionLimit(env.server.options);
  if (!env.session.subscribe(uri, limit)) throw tooManySubscriptions(limit);
  return {};
}

/** The variables matched from a URI, through the template's validator when it has one (-32602 naming the variable). */
function templateVariables(template: RegisteredTemplate, variables: Record<string, string>): unknown {
  if (!template.validator) return variables;
  const parsed = template.validator.safeParse(variables);
  if (parsed.success) return parsed.data;
  const what = `resource template ${template.definition.uriTemplate}`;
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for ${what}: ${formatIssues(parsed.error.issues, "variables")}`,
  );
}

/** The spec's resource-not-found error in the request's revision, with the URI as `data.uri`. */
function notFound(env: MethodEnv, uri: string, message: string): RpcError {
  return new RpcError(ERA_RULES[env.profile.era].resourceNotFoundCode, message, { uri });
}

async function getPrompt(env: MethodEnv): Promise<Result> {
  const name = env.params["name"] as string;
  const prompt = env.server.prompts.get(name);
  if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  let args: unknown = env.params["arguments"] ?? {};
  for (const arg of prompt.definition.arguments ?? []) {
    if (
      arg.required &&
      (!Object.hasOwn(args as object, arg.name) || (args as Record<string, unknown>)[arg.name] === undefined)
    ) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: prompt ${name} needs argument "${arg.name}"`);
    }
  }
  if (prompt.validator) {
    const parsed = prompt.validator.safeParse(args);
    if (!parsed.success)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: ${formatIssues(parsed.error.issues, "params.arguments")}`,
      );
    args = parsed.data;
  }
  return (await prompt.handler(args, env.context)) as Result;
}

async function complete(env: MethodEnv): Promise<Result> {
  const params = env.params as unknown as CompleteParams;
  const completers =
    params.ref.type === "ref/prompt"
      ? env.server.prompts.get(params.ref.name ?? "")?.complete
      : params.ref.type === "ref/resource"
        ? env.server.templates.get(params.ref.uri ?? "")?.complete
        : undefined;
  // Own keys only: an argument named "constructor" or "__proto__" must not find Object.prototype's members.
  const name = params.argument.name;
  const completer: Completer | undefined = completers && Object.hasOwn(completers, name) ? completers[name] : undefined;
  const values = completer
    ? await completer(params.argument.value, {
        arguments: ("context" in params ? params.context?.arguments : undefined) ?? {},
        request: env.context,
      })
    : [];
  const total = values.length;
  return { completion: { values: values.slice(0, MAX_COMPLETIONS), total, hasMore: total > MAX_COMPLETIONS } };
}

export const SERVER_METHODS: Readonly<Record<string, MethodImpl>> = {
  ping: () => ({}),
  "server/discover": (env) => {
    const result: Result = {
      supportedVersions: [...env.server.versions],
      capabilities: env.server.capabilities(env.profile.version),
    };
    if (env.server.options.instructions !== undefined) result["instructions"] = env.server.options.instructions;
    return result;
  },
  "tools/list": (env) =>
    listOf(
      env,
      env.server.features.reduce<readonly ToolDefinition[]>(
        (tools, feature) => feature.toolList?.(tools, env.context) ?? tools,
        [...env.server.tools.values()].map((t) => t.definition),
      ),
      "tools",
    ),
  "tools/call": callTool,
  "resources/list": (env) =>
    listOf(
      env,
      env.server.features.reduce<readonly ResourceDefinition[]>(
        (resources, feature) => feature.resourceList?.(resources, env.context) ?? resources,
        [...env.server.resources.values()].map((r) => r.definition),
      ),
      "resources",
    ),
  "resources/templates/list": (env) =>
    listOf(
      env,
      [...env.server.templates.values()].map((t) => t.definition),
      "resourceTemplates",
    ),
  "resources/read": readResource,
  "resources/subscribe": subscribe,
  "resources/unsubscribe": (env) => (env.session.unsubscribe(env.params["uri"] as string), {}),
  "prompts/list": (env) =>
    listOf(
      env,
      [...env.server.prompts.values()].map((p) => p.definition),
      "prompts",
    ),
  "prompts/get": getPrompt,
  "completion/complete": complete,
  "logging/setLevel": (env) => (env.session.setLogLevel(env.params["level"]), {}),
  "subscriptions/listen": async (env) => {
    const filter = env.params["notifications"] as SubscriptionFilter;
    const additions: ListenAddition[] = [];
    for (const feature of env.server.features) {
      const addition = await feature.listen?.(filter as Readonly<Record<string, unknown>>, env.context);
      if (addition) additions.push(addition);
    }
    return env.session.listen(env.requestId, filter, env.context.signal, env.profile, additions);
  },
};
