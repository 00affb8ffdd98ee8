import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';
import { userOrDefault, userValue } from '../../../platform/userSettings';
import { newId, type Conversation, type ConversationCaps, type HostMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';
import { CapGate, type CapDecision, type CapPauseView, type CapSettings, type RequestQuote } from '../core/capGate';
import { displayToQuota, readCap } from '../core/capMath';
import { SideSpend } from '../core/sideSpend';

type Broadcast = (m: HostMessage) => void;
/** The gateway and profile a chat backend's next request is billed to (its account quotes the price). */
type BilledTo = (backend: unknown) => { gateway: string; profile?: string };

/**
 * What the caps use of the chat session (`ChatSession`; the session's `SessionCaps` is what they
 * offer it, matched by shape: the session imports the caps' core, so the caps do not import it).
 */
interface CapsSession {
  readonly shown: Conversation;
  currentModel(): { id: string };
  setParams(params: Conversation['params'], systemPrompt: string | null | undefined): Promise<void>;
}

/**
 * The caps as the user set them: `gatewayStudio.spend.capPerTurn`, `capPerConversation` and the
 * daily limit's action from the user's own settings only (src/platform/userSettings.ts): a
 * workspace or a dev container could otherwise lift the caps that stop an agent loop.
 */
export function capSettings(): CapSettings {
  const limit = userValue('spend.dailyLimit');
  return {
    turn: userValue('spend.capPerTurn'),
    conversation: userValue('spend.capPerConversation'),
    dailyBlocks: typeof limit === 'number' && limit > 0 && userValue('spend.dailyLimitAction') === 'block',
  };
}

/**
 * The chat's spend caps on the host: a {@link CapGate} per turn, whose card goes to every chat
 * view and waits for `caps/decide` (or the turn's Stop); the gear panel's caps (`caps/set`),
 * checked and kept with the conversation; and the composer's pre-send price.
 */
export class ChatCaps {
  private readonly waiting = new Map<string, { msg: HostMessage; done: (d: CapDecision) => void }>();
  private price: HostMessage = { type: 'caps/price' };
  private refreshing = 0;

  private readonly p: { broadcast: Broadcast; session: () => CapsSession; billedTo: BilledTo };
  /** Subagents' costs (`chat/subagents`), counted in the turn that started them. */
  readonly side = new SideSpend();

  /**
   * `services` and `session` are asked on use: the controller builds this before them. `billedTo`:
   * the gateway and profile a turn's backend sends to (failover's `answering`, which the
   * controller wires in: the caps do not import failover, whose backend imports the session).
   */
  constructor(
    private readonly services: () => Services,
    broadcast: Broadcast,
    session: () => CapsSession,
    billedTo: BilledTo,
  ) {
    this.p = { broadcast, session, billedTo };
  }

  readonly routes: Routes<'caps/decide' | 'caps/set'> = {
    'caps/decide': (m) => this.decide(m.id, m.decision),
    'caps/set': async (m) => {
      const caps: ConversationCaps = {};
      for (const kind of ['turn', 'conversation'] as const) {
        const r = readCap(m[kind]);
        if (!r.ok) {
          const text = vscode.l10n.t(
            'A spend cap must be a number more than 0 ({0} is not): nothing was changed. Clear the field to use the setting.',
            String(m[kind]),
          );
          return this.p.broadcast({ type: 'chat/notice', level: 'error', text });
        }
        if (r.cap !== undefined) caps[kind] = r.cap;
      }
      const session = this.p.session();
      session.shown.caps = Object.keys(caps).length ? caps : undefined;
      // Saves the conversation and shows it again, as the panel's other fields do.
      await session.setParams(session.shown.params, undefined);
    },
  };

  /** The gate of one turn (the session's `SessionCaps.forTurn`). */
  forTurn(
    conversation: Conversation,
    turn: { backend: unknown; settled: () => Promise<void>; signal: AbortSignal },
  ): CapGate {
    return new CapGate(conversation, {
      settings: capSettings,
      // The account the request will be billed to: the chat's backend is a failover backend, whose
      // target is the conversation's profile until a refusal sends the turn to another one.
      quote: (model) => this.quote(this.p.billedTo(turn.backend), model),
      settled: turn.settled,
      ask: (pause) => this.ask(pause, turn.signal),
      notice: (text) => this.p.broadcast({ type: 'chat/notice', level: 'warning', text }),
      newId: () => newId('cap'),
      sideSpent: this.side.from(conversation.id),
    });
  }

  /** The cards still waiting (a view that reloads shows them again) and the pre-send price. */
  messages(): HostMessage[] {
    return [...[...this.waiting.values()].map((w) => w.msg), this.price];
  }

  /** Prices the shown conversation's model again for the pre-send line; sent when it changed. */
  refresh(): void {
    const n = ++this.refreshing;
    void this.promptPrice().then(
      (msg) => {
        if (n !== this.refreshing || JSON.stringify(msg) === JSON.stringify(this.price)) return;
        this.price = msg;
        this.p.broadcast(msg);
      },
      (err: unknown) => this.services().log.warn(`spend caps: no prompt price: ${String(err)}`),
    );
  }

  private async promptPrice(): Promise<HostMessage> {
    const none: HostMessage = { type: 'caps/price' };
    const above = userOrDefault('spend.promptCostNotice');
    if (typeof above !== 'number' || !Number.isFinite(above) || above <= 0) return none;
    const session = this.p.session();
    const model = session.currentModel().id;
    if (!model) return none;
    // The active profile's gateway (the shown conversation's is made active when it is shown):
    // no client is built here, so nothing can ask about a workspace's gateway before a send.
    const q = await this.quote({}, model);
    if (!q || q.price.perCall !== undefined) return none;
    return {
      type: 'caps/price',
      price: { model, perToken: q.price.input, above: displayToQuota(above, q.unit), unit: q.unit },
    };
  }

  /** `to`: the gateway and profile that will answer; none: the active profile's (the composer's line). */
  private async quote(to: { gateway?: string; profile?: string }, model: string): Promise<RequestQuote | undefined> {
    const quoter = this.services().answerCosts.quoter;
    const q = await quoter?.({ ...to, model }).catch((err: unknown) => {
      this.services().log.warn(
        `spend caps: no price for ${model}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    });
    if (!q) return undefined;
    const { unit, input, output, perCall, daily } = q;
    return {
      unit,
      price: { input, ...(output !== undefined ? { output } : {}), ...(perCall !== undefined ? { perCall } : {}) },
      ...(daily ? { daily } : {}),
    };
  }

  /** Shows the card in every chat view and waits for the choice; the turn's Stop is Stop. */
  private ask(pause: CapPauseView, signal: AbortSignal): Promise<CapDecision> {
    if (signal.aborted) return Promise.resolve('stop');
    return new Promise((done) => {
      const { id, kind, spent, cap, prompt, atMost, upTo, unit, model } = pause;
      const msg: HostMessage = {
        type: 'caps/pause',
        pause: { id, kind, spent, cap, prompt, atMost, upTo, unit, model },
      };
      this.waiting.set(id, { msg, done });
      signal.addEventListener('abort', () => this.decide(id, 'stop'), { once: true });
      this.p.broadcast(msg);
    });
  }

  private decide(id: string, decision: CapDecision): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    w.done(decision);
    this.p.broadcast({ type: 'caps/resolved', id });
  }
}
