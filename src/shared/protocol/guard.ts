/**
 * What a webview takes as a message from the host: an object with a string `type`. This is the
 * webviews' half of the protocol's one validation rule (see index.ts): the host parses what a
 * webview sends; a webview keeps out only what is not a message at all, and its handler table
 * ignores types it does not know. No zod here: this file is bundled into both webviews.
 */
export function asMessage<M extends { type: string }>(data: unknown): M | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  return typeof (data as { type?: unknown }).type === 'string' ? (data as M) : undefined;
}
