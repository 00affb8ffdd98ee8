/**
 * One row of the log: a question, an answer (text, tool cards, notices, usage), the hidden anchor
 * of a tool result (shown inside its call's card), a loose card or the standalone error. Each
 * reads its own message's signal, so a change to one message renders that row alone.
 */
import { useComputed } from '@preact/signals';
import type { Signal } from '@preact/signals';
import type { JSX } from 'preact';
import type {
  AssistantMessage,
  ChatMessage,
  ContextAttachment,
  EditorContext,
  UserMessage,
} from '../../../src/shared/protocol';
import { agentsCode, cardsCode } from '../lazy';
import { CARD_ROW, ERROR_ROW } from '../models/conversation';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { AnswerBody } from './AnswerBody';
import { AnswerCostLine } from './LazyCost';
import { RestoreCheckpoint } from './Checkpoint';
import { Icon, IconButton, TextButton } from './buttons';
import { ErrorBox, StandaloneError } from './ErrorBox';
import { mentionIcon, mentionName } from './mentionChips';

function lines(a: ContextAttachment): string {
  if (a.startLine === undefined) return '';
  const end = a.endLine ?? a.startLine;
  return end === a.startLine ? `:${a.startLine}` : `:${a.startLine}-${end}`;
}

export function contextLabel(ctx: EditorContext): string {
  const name = ctx.fileName.split(/[\\/]/).pop() ?? ctx.fileName;
  return ctx.startLine !== undefined ? `${name}:${ctx.startLine + 1}-${(ctx.endLine ?? ctx.startLine) + 1}` : name;
}

export function Row({ id }: { id: string }): JSX.Element | null {
  const { conversation } = useChat();
  if (id === ERROR_ROW) return <StandaloneError />;
  if (id.startsWith(CARD_ROW)) return <ToolCard callId={id.slice(CARD_ROW.length)} />;
  const s = conversation.messages.get(id);
  return s ? <Message msg={s} /> : null;
}

function Message({ msg }: { msg: Signal<ChatMessage> }): JSX.Element {
  const m = msg.value;
  if (m.role === 'user') return <Question m={m} msg={msg} />;
  if (m.role === 'assistant') return <Answer m={m} msg={msg} />;
  // Tool results are shown inside the card of their call.
  return <div class="tool-result-anchor" hidden data-message-id={m.id} />;
}

/**
 * Which buttons a message offers depends on its position (last question, last answer) and on
 * whether a request runs; computed per message, so only rows whose buttons change re-render.
 */
function Actions({ msg }: { msg: Signal<ChatMessage> }): JSX.Element {
  const { t, conversation, composer } = useChat();
  const { busy, lastAssistantId, lastUserId, unanswered } = conversation;
  const kind = useComputed(() => {
    const m = msg.value;
    if (m.role === 'assistant') {
      if (busy.value || m.id !== lastAssistantId.value || m.status === 'streaming') return 'copy';
      return m.finishReason === 'length' ? 'copy regenerate continue' : 'copy regenerate';
    }
    if (m.role === 'user' && m.id === lastUserId.value && !busy.value)
      return unanswered.value ? 'regenerate edit' : 'edit';
    return '';
  }).value;
  const m = msg.peek();
  return (
    <span class="msg-actions">
      {kind.startsWith('copy') ? (
        <IconButton
          icon="copy"
          label={t('Copy message')}
          onClick={() => post({ type: 'message/copy', messageId: m.id })}
        />
      ) : null}
      {kind.includes('regenerate') ? (
        <IconButton icon="refresh" label={t('Regenerate')} onClick={conversation.regenerate} />
      ) : null}
      {kind.includes('continue') ? (
        <TextButton icon="debug-continue" label={t('Continue')} onClick={conversation.continueAnswer} />
      ) : null}
      {kind.includes('edit') ? (
        <IconButton
          icon="edit"
          label={t('Edit and resend')}
          onClick={() => composer.beginEdit((msg.peek() as UserMessage).text)}
        />
      ) : null}
    </span>
  );
}

function Question({ m, msg }: { m: UserMessage; msg: Signal<ChatMessage> }): JSX.Element {
  const { t } = useChat();
  const attached = m.attachments ?? [];
  const extras = m.images.length + m.contexts.length + attached.length > 0;
  return (
    <article class="msg user" data-message-id={m.id} aria-label={t('You')}>
      <div class="msg-head">
        <Icon name="account" />
        <span>{t('You')}</span>
        <Actions msg={msg} />
      </div>
      <div class="user-text">{m.text}</div>
      {extras ? (
        <div class="user-extras">
          {m.images.map((img, i) => (
            <img key={`i${i}`} class="thumb" src={img.dataUrl} alt={t('Attached image: {0}', img.name)} />
          ))}
          {attached.map((a, i) => (
            <span
              key={`a${i}`}
              class={`chip mention-chip${a.note && !a.text ? ' empty' : ''}`}
              title={[a.note, a.truncated ? t('truncated') : ''].filter(Boolean).join(' · ') || undefined}
              aria-label={t(
                'Attached: {0}',
                `${mentionName(a, t)}${lines(a)}${a.truncated ? ` (${t('truncated')})` : ''}`,
              )}
            >
              <Icon name={mentionIcon(a.kind)} />
              {a.label}
              {lines(a)}
              {a.truncated ? <span class="truncated">…</span> : null}
            </span>
          ))}
          {m.contexts.map((ctx, i) => (
            <span key={`c${i}`} class="chip">
              <Icon name="file-code" />
              {t('Context: {0}', contextLabel(ctx))}
            </span>
          ))}
        </div>
      ) : null}
    </article>
  );
}

function Answer({ m, msg }: { m: AssistantMessage; msg: Signal<ChatMessage> }): JSX.Element {
  const { t, tools } = useChat();
  // Cards of calls no answer names are shown under the answer that was last when they came.
  const loose = useComputed(() =>
    tools.looseCards.value
      .filter((c) => c.owner === m.id)
      .map((c) => c.callId)
      .join('\n'),
  ).value;
  return (
    <article class="msg assistant" data-message-id={m.id} aria-label={t('Assistant')}>
      <div class="msg-head">
        <Icon name="sparkle" />
        <span>{t('Assistant')}</span>
        <Actions msg={msg} />
      </div>
      <AnswerBody m={m} />
      <div class="tool-cards">
        {(m.toolCalls ?? []).map((c) => (
          <ToolCard key={c.id} callId={c.id} name={c.function.name} args={c.function.arguments} />
        ))}
        {loose ? loose.split('\n').map((callId) => <ToolCard key={callId} callId={callId} />) : null}
      </div>
      <div class="msg-extras">
        <AnswerNotes m={m} />
        <RestoreCheckpoint answerId={m.id} />
      </div>
      {agentsCode.value.value ? <agentsCode.value.value.AnswerAgent m={m} /> : null}
    </article>
  );
}

/** How the answer ended, notices, its error, and the usage and aligned-model line. */
function AnswerNotes({ m }: { m: AssistantMessage }): JSX.Element {
  const { t } = useChat();
  const aligned = m.model && m.model !== m.requestedModel;
  return (
    <>
      {m.status === 'stopped' ? (
        <p class="notice stopped">
          <Icon name="debug-stop" /> {t('Stopped.')}
        </p>
      ) : null}
      {m.finishReason === 'length' ? (
        <p class="notice">
          <Icon name="warning" /> {t('The answer hit the token limit (finish reason: length).')}
        </p>
      ) : null}
      {m.finishReason === 'content_filter' ? (
        <p class="notice filter" role="note">
          <Icon name="shield" />{' '}
          {t(
            'The gateway filtered this answer (finish reason: content_filter). Rephrase the message or ask differently.',
          )}
        </p>
      ) : null}
      {(m.notices ?? []).map((n, i) => (
        <p key={i} class="notice">
          <Icon name="info" /> {n}
        </p>
      ))}
      {m.error ? <ErrorBox error={m.error} /> : null}
      {m.usage || m.cost || aligned ? (
        <p class="meta">
          {m.usage ? (
            <span class="usage">
              {t(
                'Tokens: {0} prompt + {1} completion = {2}',
                m.usage.prompt_tokens,
                m.usage.completion_tokens,
                m.usage.total_tokens,
              )}
            </span>
          ) : null}
          {m.cost ? <AnswerCostLine cost={m.cost} /> : null}
          {aligned ? (
            <span class="aligned">{t('Answered by {0} (asked for {1})', m.model ?? '', m.requestedModel)}</span>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

/** A tool card. Its code is a chunk (lazy.ts): the card shows once that is loaded. */
function ToolCard(props: { callId: string; name?: string; args?: string }): JSX.Element | null {
  const code = cardsCode.value.value;
  if (!code) {
    void cardsCode.load();
    return null;
  }
  return <code.ToolCard {...props} />;
}
