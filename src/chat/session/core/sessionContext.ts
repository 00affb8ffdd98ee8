import * as l10n from '@vscode/l10n';
import { newId, type Conversation, type HostMessage, type ToolMode } from '../../../shared/protocol';
import { CompactionFailed } from '../../context/core/compaction';
import { ContextGuard } from '../../context/core/contextGuard';
import { assembleSystemPrompt, type PromptSnapshot } from '../../prompt/core/systemPrompt';
import type { ToolExecutor } from '../../tools/core/seam';
import { effectiveModel, type RequestDefaults } from '../../conversation/core/request';
import type { RequestSlot } from './requestSlot';
import type { SessionDeps } from './sessionDeps';
import { errorView } from './errorView';

/** What the context window needs of the session. */
export interface SessionContextHost {
  readonly deps: SessionDeps;
  readonly slot: RequestSlot;
  readonly now: () => number;
  shown(): Conversation;
  executor(): ToolExecutor | undefined;
  save(c: Conversation): Promise<void>;
}

/**
 * The shown conversation's context window in the session: the meter and the system prompt it
 * counts, the tool mode per model, and compaction on request. The limits, counting and fitting
 * themselves are the {@link ContextGuard}'s.
 */
export class SessionContext {
  readonly guard: ContextGuard;
  /** The last prompt snapshot taken (for the meter between requests). */
  private lastPrompt: PromptSnapshot | undefined;

  constructor(private readonly host: SessionContextHost) {
    const { deps } = host;
    this.guard = new ContextGuard({
      storage: deps.contextStorage,
      overrides: () => deps.settings().modelOverrides ?? {},
      now: host.now,
      log: (m) => deps.log.warn(m),
      ...(deps.hooks ? { beforeSummary: (id, trigger, signal) => this.beforeSummary(id, trigger, signal) } : {}),
    });
  }

  /** PreCompact: the user's hooks run before the summary; what they report is shown. */
  private async beforeSummary(conversationId: string, trigger: 'manual' | 'auto', signal: AbortSignal): Promise<void> {
    const r = await this.host.deps.hooks?.beforeCompact({ conversationId, trigger, signal });
    for (const text of r?.notices ?? []) this.host.deps.sink.broadcast({ type: 'chat/notice', level: 'warning', text });
  }

  /** The meter for the shown conversation (none without a model). */
  messages(): HostMessage[] {
    const meter = this.guard.meter(this.host.shown(), this.requestDefaults(), this.host.executor());
    // The pre-send line's price goes with the meter whose tokens it prices (chat/caps).
    return [...(meter ? [{ type: 'context/meter' as const, meter }] : []), ...(this.host.deps.caps?.messages() ?? [])];
  }

  broadcastMeter(): void {
    for (const m of this.messages()) this.host.deps.sink.broadcast(m);
    this.host.deps.caps?.refresh();
  }

  /** The settings' defaults, as a turn uses them. */
  turnDefaults(): RequestDefaults {
    const settings = this.host.deps.settings();
    return { model: settings.chatModel, systemPrompt: settings.systemPrompt, params: settings.params };
  }

  /** The defaults with the system prompt as last assembled, for the meter and compaction. */
  requestDefaults(): RequestDefaults {
    const snapshot = this.lastPrompt;
    const shown = this.host.shown();
    return {
      ...this.turnDefaults(),
      // The meter counts the system prompt as last assembled (see refreshPrompt).
      ...(snapshot ? { system: (own: string) => assembleSystemPrompt(snapshot, shown, own) } : {}),
    };
  }

  /** The editor's state or the rules changed: the meter counts the system prompt as it is now. */
  async refreshPrompt(): Promise<void> {
    if (!this.host.deps.prompt) return;
    this.lastPrompt = await this.host.deps.prompt(this.host.shown());
    if (!this.host.slot.busy) this.broadcastMeter();
  }

  /** The snapshot for one request, kept for the meter. */
  readonly takePrompt = async (c: Conversation): Promise<PromptSnapshot> => {
    const snapshot = await this.host.deps.prompt!(c);
    this.lastPrompt = snapshot;
    return snapshot;
  };

  /** Which tools the shown conversation's model gets from now on (remembered per model). */
  setToolMode(mode: ToolMode): void {
    const model = effectiveModel(this.host.shown(), this.turnDefaults());
    if (!model) return;
    this.guard.setToolMode(model, mode);
    this.broadcastMeter();
  }

  /** The context window's error buttons and the Compact conversation action. */
  async action(action: 'compact' | 'toolsOff' | 'toolsReadOnly'): Promise<void> {
    if (action === 'toolsOff') return this.setToolMode('none');
    if (action === 'toolsReadOnly') return this.setToolMode('readOnly');
    return this.compact();
  }

  /**
   * Summarises the turns before the latest user message now. A failed summary says so and leaves
   * the conversation as it was; the messages themselves are never changed.
   */
  async compact(): Promise<void> {
    const { slot, deps } = this.host;
    const sink = deps.sink;
    if (slot.busy) return slot.warnBusy();
    const conversation = this.host.shown();
    const requestId = newId('r');
    const signal = slot.begin(requestId);
    try {
      const backend = await deps.backend();
      const changed = await this.guard.compact(conversation, this.requestDefaults(), backend, signal);
      if (changed) {
        conversation.updatedAt = this.host.now();
        await this.host.save(conversation);
        sink.broadcast({
          type: 'context/compacted',
          conversationId: conversation.id,
          compaction: conversation.compaction,
        });
        sink.broadcast({
          type: 'chat/notice',
          level: 'info',
          text: l10n.t(
            'Earlier conversation summarised: {0} messages are sent as one summary from now on.',
            conversation.compaction?.messageCount ?? 0,
          ),
        });
      } else {
        sink.broadcast({
          type: 'chat/notice',
          level: 'info',
          text: l10n.t('Nothing to compact: only the latest message is left.'),
        });
      }
    } catch (err) {
      const detail = err instanceof CompactionFailed ? err.message : errorView(err).detail;
      sink.broadcast({
        type: 'chat/notice',
        level: 'error',
        text: `${l10n.t('Compaction failed.')} ${detail} ${l10n.t('The conversation was left as it was.')}`,
      });
    } finally {
      slot.end(requestId);
      sink.broadcast({ type: 'chat/done', requestId });
      this.broadcastMeter();
    }
  }
}
