import type { HostMessage } from './protocol';

/**
 * What the webview takes as a host message. Validation happens where the trust boundary is: the
 * host parses everything a webview sends (`parseWebviewMessage`), and a host message is built by
 * this extension's own typed code from data it has already validated (the gateway's answers, the
 * stored conversations). So the webview only keeps out what is not a message of ours at all;
 * running the whole schema again cost the webview bundle zod (about 38 KB of its 300 KB budget).
 * Unknown types fall through the webview's switch.
 */
export function asHostMessage(data: unknown): HostMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  return typeof (data as { type?: unknown }).type === 'string' ? (data as HostMessage) : undefined;
}
