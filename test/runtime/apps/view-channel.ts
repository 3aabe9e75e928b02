/**
 * A view and its host in one Node process, joined by a real `MessageChannel` (messages are structured-cloned and
 * delivered asynchronously, as `postMessage` between frames is): the host gets `messagePortViewPort(port1)`; the view
 * side is either the window a generated view module expects (`window` with `message` events whose `source` is the
 * host) or a Transport for the official `App` class. Every message the view receives is recorded in order.
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { messagePortViewPort, type ViewPort } from "../../../runtime/apps/index.ts";

export interface ViewChannel {
  /** The host's end. */
  readonly port: ViewPort;
  /** What the view received, in order. */
  readonly received: unknown[];
  /** The view's raw end, to post what no view library would (malformed messages). */
  readonly raw: MessagePort;
  close(): void;
}

/** Node's global `MessageChannel`, typed as the DOM's (a host page's). */
function channel(): { port1: MessagePort; port2: MessagePort; received: unknown[] } {
  const { port1, port2 } = new MessageChannel();
  const received: unknown[] = [];
  port2.addEventListener("message", (event) => received.push(event.data));
  port2.start();
  return { port1, port2, received };
}

/**
 * For a generated view module: installs `globalThis.window` (the view's window: `message` events from the host,
 * `source` the host's window) and returns the host window to pass as `ViewOptions.host`.
 */
export function generatedViewChannel(): ViewChannel & { readonly hostWindow: Window } {
  const { port1, port2, received } = channel();
  const viewWindow = new EventTarget();
  const hostWindow = { postMessage: (message: unknown) => port2.postMessage(message) } as unknown as Window;
  port2.addEventListener("message", ({ data }) => {
    const event = new MessageEvent("message", { data });
    Object.defineProperty(event, "source", { value: hostWindow });
    viewWindow.dispatchEvent(event);
  });
  (globalThis as { window?: unknown }).window = viewWindow;
  return {
    port: messagePortViewPort(port1),
    received,
    raw: port2,
    hostWindow,
    close() {
      port1.close();
      port2.close();
      delete (globalThis as { window?: unknown }).window;
    },
  };
}

/** For the official `App`: an SDK v2 Transport over the channel's view end. */
export function appViewChannel(): ViewChannel & { readonly transport: Transport } {
  const { port1, port2, received } = channel();
  const transport: Transport = {
    start: async () => {
      port2.addEventListener("message", (event) => transport.onmessage?.(event.data as JSONRPCMessage));
    },
    send: async (message) => port2.postMessage(message),
    close: async () => {
      port2.close();
      transport.onclose?.();
    },
  };
  return {
    port: messagePortViewPort(port1),
    received,
    raw: port2,
    transport,
    close: () => (port1.close(), port2.close()),
  };
}
