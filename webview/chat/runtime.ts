/**
 * What the models and components share besides signals: the VS Code api, the few elements driven
 * imperatively (the live region, the log, focus), the streaming answers, and when rendering happens.
 */
import { options } from 'preact';
import type { WebviewMessage } from '../../src/shared/protocol';
import type { SegmentedText } from './segments';
import type { StreamRenderer } from './stream';

/** The part of `acquireVsCodeApi()` the chat uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

let api: Pick<VsCodeApi, 'postMessage'> | undefined;

export function setApi(a: Pick<VsCodeApi, 'postMessage'>): void {
  api = a;
}

export function post(msg: WebviewMessage): void {
  api?.postMessage(msg);
}

/** Elements the chat reaches into directly; set by the components that render them. */
export const els: {
  log?: HTMLElement;
  liveRegion?: HTMLElement;
  textarea?: HTMLTextAreaElement;
  model?: HTMLInputElement;
} = {};
/** Rendered tool cards by call id (focus goes to their buttons when they ask for approval). */
export const cardEls = new Map<string, HTMLElement>();
/** Cards asking for approval that were not rendered yet (their chunk was loading): they take focus when they are. */
export const focusOnMount = new Set<string>();

/** An answer that is streaming: deltas go straight to its renderer, never through a render. */
export interface LiveMessage {
  renderer: StreamRenderer;
  reasoning: SegmentedText;
  details: HTMLElement;
}
export const live = new Map<string, LiveMessage>();

// Preact renders in a microtask by default; a host message instead renders before its handler
// returns (`flush`), so focus, scrolling and the live region act on the DOM the message made,
// and a measured handler includes its render. Events from the user still render in a microtask.
let pending: (() => void) | undefined;
options.debounceRendering = (cb) => {
  pending = cb;
  queueMicrotask(flush);
};

const after: Array<() => void> = [];

/** Runs `fn` once the current render has reached the DOM. */
export function afterRender(fn: () => void): void {
  after.push(fn);
}

export function flush(): void {
  const cb = pending;
  pending = undefined;
  cb?.();
  while (after.length) after.shift()?.();
}

export function announce(text: string): void {
  if (text && els.liveRegion) els.liveRegion.textContent = text;
}
