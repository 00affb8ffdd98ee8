/**
 * The user's hooks at a turn's edges (`SessionHooks`, see ./sessionDeps): SessionStart and
 * UserPromptSubmit before a turn that answers the user's message, Stop after an answer ended.
 * What the hooks add for the model goes with the user's message as an attachment (so history,
 * export and a later request see the same), replacing what hooks added before (Regenerate).
 */
import * as l10n from '@vscode/l10n';
import { newId, type Conversation, type ErrorView, type UserMessage } from '../../../shared/protocol';
import type { SessionHooks } from './sessionDeps';

/** The attachment that carries the hooks' context. */
export const HOOK_CONTEXT_LABEL = 'context from your hooks';
/** Most answers a Stop hook can ask for after one message: each is a paid request. */
export const MAX_STOP_CONTINUATIONS = 3;

/** A UserPromptSubmit hook blocked the message: the turn ends with its reason, nothing is sent. */
export class HookBlocked extends Error {
  readonly view: ErrorView;
  constructor(reason: string) {
    super(reason);
    this.name = 'HookBlocked';
    this.view = { title: l10n.t('A hook blocked this message'), detail: reason, actions: [] };
  }
}

/**
 * Runs SessionStart (on the conversation's first message) and UserPromptSubmit when the turn
 * answers the user's last message; the block reason when a hook blocked it.
 */
export async function beforeUserTurn(
  hooks: SessionHooks | undefined,
  conversation: Conversation,
  signal: AbortSignal,
  notice: (text: string) => void,
): Promise<string | undefined> {
  const last = conversation.messages.at(-1);
  if (!hooks || last?.role !== 'user') return undefined;
  const first = !conversation.messages.some((m) => m.role === 'assistant');
  const r = await hooks.promptSubmitted({ conversationId: conversation.id, prompt: last.text, first, signal });
  for (const n of r.notices ?? []) notice(n);
  const kept = (last.attachments ?? []).filter((a) => !(a.kind === 'terminal' && a.label === HOOK_CONTEXT_LABEL));
  if (r.context)
    kept.push({
      kind: 'terminal',
      label: HOOK_CONTEXT_LABEL,
      text: r.context,
      note: 'Output of the hooks the user configured (SessionStart, UserPromptSubmit).',
    });
  if (kept.length) last.attachments = kept;
  else delete last.attachments;
  return r.blocked;
}

/**
 * Runs Stop after an answer ended; when a hook blocks stopping, the message that makes the model
 * go on (shown in the conversation as what it is).
 */
export async function afterAnswer(
  hooks: SessionHooks | undefined,
  conversation: Conversation,
  stopHookActive: boolean,
  signal: AbortSignal,
  notice: (text: string) => void,
  now: number,
): Promise<UserMessage | undefined> {
  if (!hooks) return undefined;
  const r = await hooks.turnStopped({ conversationId: conversation.id, stopHookActive, signal });
  for (const n of r.notices ?? []) notice(n);
  if (!r.continueWith) return undefined;
  return {
    id: newId('u'),
    role: 'user',
    text: `[Stop hook] ${r.continueWith}`,
    images: [],
    contexts: [],
    createdAt: now,
  };
}
