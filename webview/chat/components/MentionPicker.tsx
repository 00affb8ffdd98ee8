/**
 * The @-picker under the message box: a listbox whose active row the textarea names with
 * `aria-activedescendant` (focus stays in the textarea while the arrows move through the rows).
 * A chunk loaded on first use (lazy.ts: the message box's focus or the first `@`), with the
 * fuzzy ranking it shows.
 */
import type { JSX } from 'preact';
import { useChat } from '../useChat';
import { Icon } from './buttons';
import { ICONS, optionId, PICKER_ID } from './mentionChips';

export { fuzzyFilter } from '../../../src/shared/fuzzy';

export function MentionPicker(): JSX.Element | null {
  const { t, mentions } = useChat();
  const p = mentions.picker.value;
  if (!p) return null;
  return (
    <div class="mention-picker">
      <ul id={PICKER_ID} role="listbox" aria-label={t('Mention a file or context')}>
        {p.items.map((item, i) => (
          <li
            key={`${item.kind}:${item.ref}:${item.label}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === p.active}
            class={i === p.active ? 'active' : undefined}
            // Keep the focus in the textarea: a mousedown there would blur it first.
            onMouseDown={(ev) => ev.preventDefault()}
            onClick={() => mentions.pick(i)}
          >
            <Icon name={ICONS[item.kind]} />
            <span class="mention-label">{item.label}</span>
            {item.detail ? <span class="mention-detail">{item.detail}</span> : null}
          </li>
        ))}
      </ul>
      {p.items.length === 0 ? (
        <p class="mention-empty" role="status">
          {p.loading ? t('Searching…') : t('Nothing matches "{0}".', p.query)}
        </p>
      ) : null}
    </div>
  );
}
