/**
 * The chat page's models in plain node: the few browser globals they touch (no element has focus,
 * no answer is in the DOM; DOMPurify sees no DOM and stays unused), the messages they post
 * recorded, and renders run on demand. Imported before the models, so the globals exist when
 * their modules load.
 */
import type { WebviewMessage } from '../../../src/shared/protocol';
import { els, flush, setApi } from '../../../webview/chat/runtime';

const g = globalThis as Record<string, unknown>;
g.window ??= globalThis;
g.document ??= { activeElement: null, body: null, hasFocus: () => false, querySelector: () => null };
g.CSS ??= { escape: (s: string) => s };

/** What the page posted to the host, in order (each test starts with an empty list). */
export function recordPosts(): WebviewMessage[] {
  const posted: WebviewMessage[] = [];
  setApi({ postMessage: (m) => posted.push(m as WebviewMessage) });
  return posted;
}

/** The live region's text after the pending renders and their follow-ups ran. */
export function liveRegion(): { text(): string } {
  const region = { textContent: '' };
  els.liveRegion = region as unknown as HTMLElement;
  return {
    text: () => {
      flush();
      return region.textContent;
    },
  };
}

/** Runs the pending render and what waits for it (focus, announcements). */
export const settle = flush;
