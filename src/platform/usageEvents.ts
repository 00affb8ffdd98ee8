import type * as vscode from 'vscode';
import type { Usage } from '../api/chat/wire';
import type { Logger } from './log';

/**
 * What the gateway billed, as the features see it: an answer (chat panel, compaction, language
 * models: every call of a {@link GatewayClient} from `getGatewayClient`) or a clip at the end of
 * its run. The account feature listens; the features that emit do not know it exists. Only
 * figures and names travel here: never a key, a prompt or an answer's text.
 */
export type UsageEvent =
  /** `profile`: the profile whose client answered (after a failover, not the active one). */
  | { kind: 'answer'; gateway: string; profile?: string; model: string; usage?: Usage }
  | {
      kind: 'clip';
      gateway: string;
      /** The gateway's id of the task: a resumed task that ends again is the same clip. */
      videoId?: string;
      model: string;
      seconds?: number;
      resolution?: string;
      end: string;
    }
  /**
   * An image request the gateway answered with images (billed per image). `jobId` is made by the
   * images feature once per sent request: saving again after a failed save is the same job.
   */
  | { kind: 'image'; gateway: string; profile?: string; jobId: string; model: string; images: number };

/**
 * The channel of usage events, one per activation, handed to every feature in `Services.usage`
 * (copies of Services, such as the exports of activate, carry the same one).
 */
export class UsageEvents {
  private readonly listeners = new Set<(e: UsageEvent) => void>();

  constructor(private readonly log: Pick<Logger, 'warn'>) {}

  /** Tells every listener; a listener that throws is skipped, the feature that emitted goes on. */
  emit(e: UsageEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.log.warn(`A usage listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  on(fn: (e: UsageEvent) => void): vscode.Disposable {
    this.listeners.add(fn);
    return { dispose: () => this.listeners.delete(fn) };
  }
}
