/** The composer: edit banner, attachments, notes, the message box, attach, send and stop. */
import type { JSX } from 'preact';
import { els, post } from '../runtime';
import { useChat } from '../useChat';
import { Icon, IconButton, TextButton } from './buttons';
import { pickerCode, queueCode, slashCode } from '../lazy';
import { mentionIcon, mentionName, optionId, PICKER_ID } from './mentionChips';
import { contextLabel } from './Message';
import { RulesBar } from './RulesBar';
import type { ComposerModel } from '../models/composer';
import type { MentionsModel } from '../models/mentions';

/**
 * A key in the message box: the open @-picker's keys first (arrows, Enter/Tab to pick, Escape),
 * then Enter sends (Shift+Enter and an IME's Enter make a new line).
 */
function onKeyDown(ev: KeyboardEvent, mentions: MentionsModel, composer: ComposerModel): void {
  if (slashCode.value.peek()?.slashModel(composer).keyDown(ev)) return;
  const picker = mentions.picker.value;
  if (picker && !ev.isComposing) {
    const keys: Record<string, () => void> = {
      ArrowDown: () => mentions.move(1),
      ArrowUp: () => mentions.move(-1),
      Enter: () => mentions.pick(),
      Tab: () => mentions.pick(),
      Escape: () => mentions.close(),
    };
    const act = keys[ev.key];
    if (act && !(ev.key === 'Enter' && ev.shiftKey)) {
      // With no rows, Enter sends as usual; the other keys still belong to the picker.
      if (!(picker.items.length === 0 && (ev.key === 'Enter' || ev.key === 'Tab'))) {
        ev.preventDefault();
        ev.stopPropagation();
        act();
        return;
      }
    }
  }
  if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    composer.send();
  }
}

/** A leading `/` opens the `/` menu (its chunk loads on the first one). */
function slashInput(composer: ComposerModel, text: string, caret: number): void {
  if (text.startsWith('/') || slashCode.value.peek())
    void slashCode.load().then((c) => c?.slashModel(composer).update(text, caret));
}

export function Composer(): JSX.Element {
  const { t, composer, mentions } = useChat();
  const { draft, editing, notes } = composer;
  const { picker } = mentions;
  const code = pickerCode.value.value;
  const slash = slashCode.value.value;
  const slashMenu = slash?.slashModel(composer).menu.value;
  const queue = queueCode.value.value;
  return (
    <div class="composer">
      <RulesBar />
      <div class="edit-banner" hidden={!editing.value}>
        <span>{t('Editing your last message: Send replaces it and asks again.')}</span>
        <TextButton icon="close" label={t('Cancel edit')} onClick={() => composer.setEditing(false)} />
      </div>
      <Attachments />
      <div class="composer-notes" role="status">
        {notes.value.map((n, i) => (
          <p key={i} class={n.level}>
            <Icon name={n.level === 'info' ? 'info' : n.level} /> {n.text}
          </p>
        ))}
      </div>
      {queue ? <queue.QueueList /> : null}
      {code ? <code.MentionPicker /> : null}
      {slash ? <slash.SlashMenu /> : null}
      <textarea
        class="input"
        rows={3}
        aria-autocomplete="list"
        aria-expanded={picker.value !== undefined || slashMenu !== undefined}
        aria-controls={slashMenu ? slash?.SLASH_MENU_ID : PICKER_ID}
        aria-activedescendant={
          slashMenu?.items.length
            ? slash?.slashOptionId(slashMenu.active)
            : picker.value?.items.length
              ? optionId(picker.value.active)
              : undefined
        }
        aria-label={t('Message')}
        placeholder={t('Ask about your code, or paste an image…')}
        value={draft}
        ref={(el) => {
          els.textarea = el ?? undefined;
          // A textarea that controls a listbox is a combobox (ARIA 1.2); Preact's types allow only textbox.
          el?.setAttribute('role', 'combobox');
        }}
        onInput={(ev) => {
          const ta = ev.currentTarget;
          draft.value = ta.value;
          mentions.update(ta.value, ta.selectionStart);
          slashInput(composer, ta.value, ta.selectionStart);
        }}
        onClick={(ev) => mentions.update(ev.currentTarget.value, ev.currentTarget.selectionStart)}
        onFocus={() => void pickerCode.load()}
        onBlur={() => {
          mentions.close();
          slash?.slashModel(composer).close();
        }}
        onKeyDown={(ev) => onKeyDown(ev, mentions, composer)}
        onPaste={(ev) => {
          const files = [...(ev.clipboardData?.files ?? [])];
          if (files.length) {
            ev.preventDefault();
            void composer.addFiles(files);
          }
        }}
      />
      <ComposerActions />
    </div>
  );
}

/** Attach, and Send or Stop (whichever the running request leaves). */
function ComposerActions(): JSX.Element {
  const { t, conversation, composer } = useChat();
  return (
    <div class="composer-actions">
      <span class="attach-slot">
        <IconButton icon="file-media" label={t('Attach image')} onClick={() => post({ type: 'images/pick' })} />
      </span>
      <span class="spacer" />
      <button
        type="button"
        class="secondary stop"
        hidden={!conversation.busy.value}
        aria-label={t('Stop')}
        onClick={conversation.stop}
      >
        <Icon name="debug-stop" />
        <span>{t('Stop')}</span>
      </button>
      <button
        type="button"
        class="primary send"
        hidden={conversation.busy.value}
        aria-label={t('Send')}
        onClick={composer.send}
      >
        <Icon name="send" />
        <span>{t('Send')}</span>
      </button>
    </div>
  );
}

function Attachments(): JSX.Element {
  const { t, composer, mentions } = useChat();
  const { images, contexts } = composer;
  return (
    <div class="attachments">
      {images.value.map((img, i) => (
        <span key={`i${i}`} class="attachment">
          <img class="thumb" src={img.dataUrl} alt={t('Attached image: {0}', img.name)} />
          <IconButton
            icon="close"
            label={`${t('Remove attachment')}: ${img.name}`}
            onClick={() => composer.removeImage(i)}
          />
        </span>
      ))}
      {mentions.chips.value.map((m, i) => (
        <span key={`m${i}`} class="chip mention-chip" title={m.detail ?? m.label}>
          <Icon name={mentionIcon(m.kind)} />
          <span>{m.label}</span>
          <IconButton
            icon="close"
            label={`${t('Remove mention')}: ${mentionName(m, t)}`}
            onClick={() => mentions.remove(i)}
          />
        </span>
      ))}
      {contexts.value.map((ctx, i) => (
        <span key={`c${i}`} class="chip">
          <Icon name="file-code" />
          <span>{contextLabel(ctx)}</span>
          <IconButton
            icon="close"
            label={`${t('Remove context')}: ${ctx.fileName}`}
            onClick={() => composer.removeContext(i)}
          />
        </span>
      ))}
    </div>
  );
}
