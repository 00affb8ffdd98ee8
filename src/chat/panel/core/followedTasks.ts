import type { MediaJobSource } from '../../../contracts/featureTools';
import type { HostMessage, VideoCardAction } from '../../../shared/protocol';

/** A call whose card follows a task, as stored (so history shows the card again after a restart). */
export interface FollowedEntry {
  kind: MediaJobSource['kind'];
  conversationId: string;
  callId: string;
  key: string;
}

/** What the followed tasks need of the chat's webviews and storage. */
export interface FollowPort {
  /** A local file as a URI the chat pages may load; undefined while no page is open. */
  asWebviewUri(fsPath: string): string | undefined;
  /** The folders of every followed task joined the pages' `localResourceRoots` (before links go out). */
  rootsChanged(): void;
  broadcast(msg: HostMessage): void;
  /** The conversation the pages show: only its cards get task states. */
  conversationId(): string;
  load(): FollowedEntry[];
  save(entries: FollowedEntry[]): void;
  warn(text: string): void;
}

interface Followed {
  entry: FollowedEntry;
  source: MediaJobSource;
  sub: { dispose(): void };
  /** Orders the describes of one card, so a slow one never overwrites a newer state. */
  seq: number;
  last?: Extract<HostMessage, { type: 'tools/mediaJob' }>;
}

/** Stored calls beyond this many are forgotten, oldest first. */
const MAX_STORED = 200;

/**
 * The tasks that tool calls started and their cards keep showing (a video: progress, then the
 * saved file). Every change of a task is described again and sent as `tools/mediaJob` to the
 * pages when its conversation is shown; the last one per card is part of the state a reloaded
 * page starts from. Call ids repeat across conversations (relays number them), so a card is
 * the pair (conversation, call). Needs nothing of VS Code.
 */
export class FollowedTasks {
  private readonly byCall = new Map<string, Followed>();
  private shown: string | undefined;

  constructor(private readonly port: FollowPort) {}

  follow(conversationId: string, callId: string, key: string, source: MediaJobSource): void {
    this.start({ kind: source.kind, conversationId, callId, key }, source);
    this.port.save([...this.byCall.values()].map((f) => f.entry).slice(-MAX_STORED));
  }

  /** A source is available: the stored calls of its kind follow their tasks again. */
  offer(source: MediaJobSource): void {
    for (const e of this.port.load())
      if (e.kind === source.kind && !this.byCall.has(id(e.conversationId, e.callId))) this.start(e, source);
  }

  /** The pages may show another conversation now: its cards get their tasks' last states. */
  conversationShown(): void {
    const now = this.port.conversationId();
    if (now === this.shown) return;
    this.shown = now;
    for (const m of this.messages()) this.port.broadcast(m);
  }

  /** Describes every followed task again (a page appeared, so links can be made now). */
  refreshAll(): Promise<void> {
    return Promise.all([...this.byCall.keys()].map((c) => this.update(c))).then(() => undefined);
  }

  /** The last state of every card of the shown conversation, for a page that is (re)loaded. */
  messages(): HostMessage[] {
    const c = this.port.conversationId();
    return [...this.byCall.values()].flatMap((f) => (f.last && f.entry.conversationId === c ? [f.last] : []));
  }

  /** Local folders the pages must be allowed to load (output folders, the poster cache). */
  roots(): string[] {
    const all = new Set<string>();
    for (const s of new Set([...this.byCall.values()].map((f) => f.source)))
      for (const r of s.resourceRoots()) all.add(r);
    return [...all];
  }

  /** A card's Open / Reveal button (in the shown conversation); a call that follows nothing is ignored. */
  async act(callId: string, action: VideoCardAction): Promise<void> {
    const f = this.byCall.get(id(this.port.conversationId(), callId));
    if (f) await f.source.act(f.entry.key, action);
  }

  dispose(): void {
    for (const f of this.byCall.values()) f.sub.dispose();
    this.byCall.clear();
  }

  private start(entry: FollowedEntry, source: MediaJobSource): void {
    const at = id(entry.conversationId, entry.callId);
    this.byCall.get(at)?.sub.dispose();
    this.byCall.delete(at);
    const f: Followed = { entry, source, seq: 0, sub: source.watch(entry.key, () => void this.update(at)) };
    this.byCall.set(at, f);
    void this.update(at);
  }

  private async update(at: string): Promise<void> {
    const f = this.byCall.get(at);
    if (!f) return;
    const seq = ++f.seq;
    this.port.rootsChanged();
    let missing = false;
    const task = await f.source
      .describe(f.entry.key, (p) => {
        const uri = this.port.asWebviewUri(p);
        if (uri === undefined) missing = true;
        return uri ?? '';
      })
      .catch((e: unknown) => {
        this.port.warn(`video card ${f.entry.callId}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
    // No page to link for yet: the first page that attaches asks again.
    if (!task || missing || seq !== f.seq || this.byCall.get(at) !== f) return;
    f.last = { type: 'tools/mediaJob', callId: f.entry.callId, task };
    if (f.entry.conversationId === this.port.conversationId()) this.port.broadcast(f.last);
  }
}

function id(conversationId: string, callId: string): string {
  return `${conversationId}\u0000${callId}`;
}
