/**
 * The queued messages above the message box (a lazily loaded chunk, lazy.ts): each one editable
 * and removable, Send now, and the keys that queue while an answer runs (Enter queues,
 * Ctrl/Cmd+Enter stops the answer and sends). The host keeps the queue (models/queue.ts).
 */
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { HostMessageIn } from '../models/routes';
import { createQueueModel, type QueueDeps, type QueueModel } from '../models/queue';
import { els } from '../runtime';
import { useChat } from '../useChat';
import { IconButton, TextButton } from './buttons';

let model: QueueModel | undefined;

/** The page's one queue model (made on first use, by a host message or the list itself). */
export function queueModel(deps: QueueDeps): QueueModel {
  return (model ??= createQueueModel(deps));
}

/** A `queue/*` message from the host (app.ts routes it here once this chunk is loaded). */
export function onHost(deps: QueueDeps, msg: HostMessageIn<'queue'>): void {
  queueModel(deps).onHost(msg);
}

/**
 * Enter in the message box while an answer runs: queued instead of ignored. Taken in the capture
 * phase, before the composer's own keys, but never from an open @-picker or `/` menu (their Enter picks).
 */
function queueKeys(queue: QueueModel): (ev: KeyboardEvent) => void {
  return (ev) => {
    if (ev.target !== els.textarea || ev.key !== 'Enter' || ev.shiftKey || ev.isComposing) return;
    if (!queue.busy.value) return;
    // An open @-picker or `/` menu with a row active takes Enter (the box then names that row).
    if (els.textarea.hasAttribute('aria-activedescendant')) return;
    ev.preventDefault();
    ev.stopPropagation();
    queue.add(ev.ctrlKey || ev.metaKey);
  };
}

function QueuedItem({ queue, id, text, n }: { queue: QueueModel; id: string; text: string; n: number }): JSX.Element {
  const { t } = useChat();
  const box = useRef<HTMLTextAreaElement>(null);
  const editing = queue.editing.value === id;
  useEffect(() => {
    if (editing) box.current?.focus();
  }, [editing]);
  return (
    <li class="queued">
      {editing ? (
        <textarea
          ref={box}
          class="queued-edit"
          rows={2}
          aria-label={t('Edit queued message {0}', n)}
          defaultValue={text}
          onKeyDown={(ev) => {
            if (ev.key === 'Escape') {
              ev.preventDefault();
              ev.stopPropagation();
              queue.editing.value = undefined;
            } else if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
              ev.preventDefault();
              queue.save(id, ev.currentTarget.value);
            }
          }}
          onBlur={(ev) => queue.editing.value === id && queue.save(id, ev.currentTarget.value)}
        />
      ) : (
        <span class="queued-text">{text}</span>
      )}
      <IconButton
        icon="edit"
        label={t('Edit queued message {0}', n)}
        onClick={() => (queue.editing.value = id)}
        hidden={editing}
      />
      <IconButton icon="close" label={t('Remove queued message {0}', n)} onClick={() => queue.remove(id)} />
    </li>
  );
}

export function QueueList(): JSX.Element | null {
  const app = useChat();
  const { t, conversation, composer } = app;
  const queue = queueModel({ conversation, composer, t });
  useEffect(() => {
    const onKey = queueKeys(queue);
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [queue]);
  const items = queue.items.value;
  const busy = queue.busy.value;
  if (!items.length && !busy) return null;
  return (
    <section class="queue" aria-label={t('Queued messages')}>
      {items.length ? (
        <ol class="queued-list">
          {items.map((i, k) => (
            <QueuedItem key={i.id} queue={queue} id={i.id} text={i.text} n={k + 1} />
          ))}
        </ol>
      ) : (
        <p class="queue-hint">
          {t('Enter queues your message until the current step ends; Ctrl+Enter stops the answer and sends it.')}
        </p>
      )}
      {items.length ? (
        <TextButton
          icon="send"
          class="text-btn queue-send"
          label={busy ? t('Stop and send now') : t('Send now')}
          onClick={queue.sendNow}
        />
      ) : null}
    </section>
  );
}
