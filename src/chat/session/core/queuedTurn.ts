import * as l10n from '@vscode/l10n';
import { newId, type ChatMessage, type Conversation, type UserMessage } from '../../../shared/protocol';
import type { SessionDeps } from './sessionDeps';
import { HOOK_CONTEXT_LABEL } from './turnHooks';

/**
 * What the user queued while a tool round ran, as the user message that follows the round's
 * results. It passes the UserPromptSubmit hooks like any message: a blocked one is queued again
 * (sent, and blocked in plain sight, when the turn ends), never dropped.
 */
export async function queuedAfterRound(
  deps: Pick<SessionDeps, 'queue' | 'hooks'>,
  conversation: Conversation,
  signal: AbortSignal,
  notice: (text: string) => void,
  now: number,
): Promise<ChatMessage[]> {
  const text = deps.queue?.afterRound(conversation.id);
  if (text === undefined) return [];
  const user: UserMessage = { id: newId('u'), role: 'user', text, images: [], contexts: [], createdAt: now };
  const r = await deps.hooks?.promptSubmitted({ conversationId: conversation.id, prompt: text, first: false, signal });
  for (const n of r?.notices ?? []) notice(n);
  if (r?.blocked !== undefined) {
    deps.queue?.putBack(conversation.id, text);
    notice(l10n.t('A hook blocked your queued message, so it was kept in the queue: {0}', r.blocked));
    return [];
  }
  if (r?.context)
    user.attachments = [
      {
        kind: 'terminal',
        label: HOOK_CONTEXT_LABEL,
        text: r.context,
        note: 'Output of the hooks the user configured (SessionStart, UserPromptSubmit).',
      },
    ];
  return [user];
}
