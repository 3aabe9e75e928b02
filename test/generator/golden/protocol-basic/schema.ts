/* A miniature protocol schema for the golden tests: every construct the generator supports, in few lines. */

/** @internal */
export const LATEST_PROTOCOL_VERSION = "2099-01-01";
/** @internal */
export const JSONRPC_VERSION = "2.0";
/** Invalid method parameter(s). */
export const INVALID_PARAMS = -32602;

/* Recursive JSON values need lazy schemas. */
export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;
export type JSONObject = { [key: string]: JSONValue };
export type JSONArray = JSONValue[];

export type MetaObject = Record<string, unknown>;

/** Request metadata with quoted keys. */
export interface RequestMetaObject extends MetaObject {
  /** Required quoted key. */
  "io.example/version": string;
  progressToken?: ProgressToken;
}

export type ProgressToken = string | number;
export type RequestId = string | number;

/** @internal */
export interface Request {
  method: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  params?: { [key: string]: any };
}

export interface RequestParams {
  _meta?: RequestMetaObject;
}

/** @internal */
export interface Notification {
  method: string;
  params?: { [key: string]: unknown };
}

export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}

export interface JSONRPCNotification extends Notification {
  jsonrpc: typeof JSONRPC_VERSION;
}

export interface Result {
  _meta?: MetaObject;
  [key: string]: unknown;
}

/** A result that carries no data. */
export type EmptyResult = Result;

/** The spec's error object; its name must not break the global `Error`. */
export interface Error {
  code: number;
  message: string;
  data?: unknown;
}

export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Result;
}

export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: RequestId;
  error: Error;
}

/** An error response narrowed through `Omit<>` heritage and an intersection. */
export interface InvalidParamsErrorResponse extends Omit<JSONRPCErrorResponse, "error"> {
  error: Error & { code: typeof INVALID_PARAMS };
}

export interface ClientCapabilities {
  /** Nested inline literal. */
  roots?: {
    /** Whether the client announces root list changes. */
    listChanged?: boolean;
  };
  sampling?: object;
}

export interface ServerCapabilities {
  tools?: {
    listChanged?: boolean;
  };
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  logging?: {};
}

export interface PingRequest extends JSONRPCRequest {
  method: "ping";
  params?: RequestParams;
}

export interface CallToolRequestParams extends RequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

/**
 * Calls a tool.
 *
 * @category `tools/call`
 */
export interface CallToolRequest extends JSONRPCRequest {
  method: "tools/call";
  params: CallToolRequestParams;
}

export interface CallToolResult extends Result {
  content: ContentBlock[];
  /**
   * Plain-text rendering.
   *
   * @deprecated Use `content`.
   */
  text?: string;
  /** Open literal union: any string is valid. */
  stopReason?: "endTurn" | "maxTokens" | string;
}

export interface InputRequiredResult extends Result {
  inputRequests?: { [key: string]: InputRequest };
  requestState?: string;
}

export interface CallToolResultResponse extends JSONRPCResultResponse {
  result: CallToolResult | InputRequiredResult;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
}

export interface ImageContent {
  type: "image";
  /**
   * @format byte
   */
  data: string;
  mimeType: string;
}

export type ContentBlock = TextContent | ImageContent;

export interface Annotations {
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  priority?: number;
  audience?: ("user" | "assistant")[];
}

export interface Resource {
  /**
   * @format uri
   */
  uri: string;
  /**
   * @format uri-template
   */
  uriTemplate?: string;
  size?: number;
}

export interface Task {
  /**
   * @nullable
   */
  ttl: number | null;
  tags: Array<{ name: string }>;
}

export interface Completion {
  /**
   * @maxItems 100
   */
  values: string[];
}

export type TaskResult = Result & Task;

/** Carried inside `InputRequiredResult.inputRequests` only. */
export interface ListRootsRequest {
  method: "roots/list";
  params?: RequestParams;
}

export interface ListRootsResult {
  roots: Resource[];
}

export interface ToolListChangedNotification extends JSONRPCNotification {
  method: "notifications/tools/list_changed";
  params?: { _meta?: MetaObject };
}

export interface CancelledNotification extends JSONRPCNotification {
  method: "notifications/cancelled";
  params: {
    requestId: RequestId;
    reason?: string;
  };
}

/** @internal */
export type ClientRequest = PingRequest | CallToolRequest;
/** @internal */
export type ServerRequest = PingRequest;
/** @internal */
export type ClientNotification = CancelledNotification;
/** @internal */
export type ServerNotification = CancelledNotification | ToolListChangedNotification;
/** @internal */
export type InputRequest = ListRootsRequest;
