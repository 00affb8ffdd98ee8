import type * as vscode from 'vscode';
import type { Usage } from '../api/chat/wire';
import type { Services } from './services';

/**
 * What the gateway billed, as the features see it: an answer (chat panel, compaction, language
 * models: every call of a {@link GatewayClient} from `getGatewayClient`) or a clip at the end of
 * its run. The account feature listens; the features that emit do not know it exists. Only
 * figures and names travel here: never a key, a prompt or an answer's text.
 */
export type UsageEvent =
  | { kind: 'answer'; gateway: string; model: string; usage?: Usage }
  | {
      kind: 'clip';
      gateway: string;
      /** The gateway's id of the task: a resumed task that ends again is the same clip. */
      videoId?: string;
      model: string;
      seconds?: number;
      resolution?: string;
      end: string;
    };

// By the extension's context, not the Services object: copies of Services (the exports of
// activate, the tests' harnesses) are the same extension.
const listeners = new WeakMap<vscode.ExtensionContext, Set<(e: UsageEvent) => void>>();

/** Tells every listener; a listener that throws is skipped, the feature that emitted goes on. */
export function emitUsage(s: Services, e: UsageEvent): void {
  for (const fn of listeners.get(s.context) ?? []) {
    try {
      fn(e);
    } catch (err) {
      s.log.warn(`A usage listener failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

export function onUsage(s: Services, fn: (e: UsageEvent) => void): vscode.Disposable {
  let set = listeners.get(s.context);
  if (!set) listeners.set(s.context, (set = new Set()));
  set.add(fn);
  return { dispose: () => set.delete(fn) };
}
