import type { FeatureTaskSource } from '../../api/featureTools';
import type { HostMessage, VideoCardAction } from '../../shared/protocol';

/** What the followed tasks need of the chat's webviews. */
export interface FollowPort {
  /** A local file as a URI the chat pages may load; undefined while no page is open. */
  asWebviewUri(fsPath: string): string | undefined;
  /** The folders of every followed task joined the pages' `localResourceRoots` (before links go out). */
  rootsChanged(): void;
  broadcast(msg: HostMessage): void;
  warn(text: string): void;
}

interface Followed {
  key: string;
  source: FeatureTaskSource;
  sub: { dispose(): void };
  /** Orders the describes of one card, so a slow one never overwrites a newer state. */
  seq: number;
  last?: Extract<HostMessage, { type: 'chat/videoTask' }>;
}

/**
 * The tasks that tool calls started and their cards keep showing (a video: progress, then the
 * saved file). Every change of a task is described again and sent as `chat/videoTask`; the last
 * one per card is part of the state a reloaded page starts from. Needs nothing of VS Code.
 */
export class FollowedTasks {
  private readonly byCall = new Map<string, Followed>();

  constructor(private readonly port: FollowPort) {}

  follow(callId: string, key: string, source: FeatureTaskSource): void {
    this.byCall.get(callId)?.sub.dispose();
    const f: Followed = { key, source, seq: 0, sub: source.watch(key, () => void this.update(callId)) };
    this.byCall.set(callId, f);
    void this.update(callId);
  }

  /** Describes every followed task again (a page appeared, so links can be made now). */
  refreshAll(): Promise<void> {
    return Promise.all([...this.byCall.keys()].map((c) => this.update(c))).then(() => undefined);
  }

  /** The last state of every card, for a page that is (re)loaded. */
  messages(): HostMessage[] {
    return [...this.byCall.values()].flatMap((f) => (f.last ? [f.last] : []));
  }

  /** Local folders the pages must be allowed to load (output folders, the poster cache). */
  roots(): string[] {
    const all = new Set<string>();
    for (const s of new Set([...this.byCall.values()].map((f) => f.source)))
      for (const r of s.resourceRoots()) all.add(r);
    return [...all];
  }

  /** A card's Open / Reveal button; a call that follows nothing is ignored. */
  async act(callId: string, action: VideoCardAction): Promise<void> {
    const f = this.byCall.get(callId);
    if (f) await f.source.act(f.key, action);
  }

  dispose(): void {
    for (const f of this.byCall.values()) f.sub.dispose();
    this.byCall.clear();
  }

  private async update(callId: string): Promise<void> {
    const f = this.byCall.get(callId);
    if (!f) return;
    const seq = ++f.seq;
    this.port.rootsChanged();
    let missing = false;
    const task = await f.source
      .describe(f.key, (p) => {
        const uri = this.port.asWebviewUri(p);
        if (uri === undefined) missing = true;
        return uri ?? '';
      })
      .catch((e: unknown) => {
        this.port.warn(`video card ${callId}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
    // No page to link for yet: the first page that attaches asks again.
    if (!task || missing || seq !== f.seq || this.byCall.get(callId) !== f) return;
    f.last = { type: 'chat/videoTask', callId, task };
    this.port.broadcast(f.last);
  }
}
