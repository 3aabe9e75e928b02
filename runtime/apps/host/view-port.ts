/**
 * How a host reaches one view: a `ViewPort` posts JSON-RPC messages to it and delivers what it sends. In a page the
 * view (or the sandbox proxy around it) is an iframe's window (`frameViewPort`); a `MessagePort` of a
 * `MessageChannel` works the same way (`messagePortViewPort`: workers, tests). Structural types only, so the
 * declarations need no DOM library.
 */

/** The host's end of the channel to one view. */
export interface ViewPort {
  /** Posts one JSON-RPC message to the view. */
  post(message: object): void;
  /** Delivers every message the view sends to `receive` until the returned function is called. */
  listen(receive: (message: unknown) => void): () => void;
}

/** A `message` event as a window or port dispatches it (the parts a port reads). */
export interface MessageEventLike {
  readonly data: unknown;
  readonly source?: unknown;
  readonly origin?: string;
}

/** What dispatches `message` events: a window, a `MessagePort`. */
export interface MessageEventTargetLike {
  addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
}

/** The window of an iframe (`iframe.contentWindow`): what the host posts to. */
export interface WindowLike {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface FrameViewPortOptions {
  /** The window whose `message` events carry the view's messages (default `globalThis`: the host page's window). */
  readonly window?: MessageEventTargetLike;
  /**
   * The origin the view's frame has, checked on every message and used as the target origin of every post (default
   * `"*"`: a sandboxed `srcdoc` frame has an opaque origin, and the `source` check below still binds each message to
   * this frame).
   */
  readonly origin?: string;
}

/**
 * The view in an iframe: posts to `frame` (its `contentWindow`), and takes from the host window's `message` events
 * only those whose `source` is that frame (another frame's messages never reach this view's session).
 */
export function frameViewPort(frame: WindowLike, options: FrameViewPortOptions = {}): ViewPort {
  const origin = options.origin ?? "*";
  const target = options.window ?? (globalThis as unknown as MessageEventTargetLike);
  return {
    post: (message) => frame.postMessage(message, origin),
    listen(receive) {
      const listener = (event: MessageEventLike) => {
        if (event.source !== frame) return;
        if (origin !== "*" && event.origin !== origin) return;
        receive(event.data);
      };
      target.addEventListener("message", listener);
      return () => target.removeEventListener("message", listener);
    },
  };
}

/** A `MessagePort`'s shape (browsers' and Node's). */
export interface MessagePortLike extends MessageEventTargetLike {
  postMessage(message: unknown): void;
  start?(): void;
}

/** The view at the other end of a `MessageChannel`. */
export function messagePortViewPort(port: MessagePortLike): ViewPort {
  return {
    post: (message) => port.postMessage(message),
    listen(receive) {
      const listener = (event: MessageEventLike) => receive(event.data);
      port.addEventListener("message", listener);
      port.start?.();
      return () => port.removeEventListener("message", listener);
    },
  };
}
