/**
 * The @-picker under the message box: a listbox whose active row the textarea names with
 * `aria-activedescendant` (focus stays in the textarea while the arrows move through the rows).
 */
import type { JSX } from 'preact';
import type { MentionItem, MentionKind } from '../../../src/shared/protocol';
import type { Translate } from '../models/strings';
import { useChat } from '../useChat';
import { Icon } from './buttons';

export const PICKER_ID = 'mention-picker';
export const optionId = (i: number): string => `mention-opt-${i}`;

const ICONS: Record<MentionKind, string> = {
  file: 'file',
  folder: 'folder',
  editor: 'file-code',
  selection: 'selection',
  problems: 'warning',
  changes: 'git-compare',
  terminal: 'terminal',
  image: 'file-media',
};

export function mentionIcon(kind: MentionKind): string {
  return ICONS[kind];
}

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

/** A chip's accessible name: kind and label. */
export function mentionName(item: Pick<MentionItem, 'kind' | 'label'>, t: Translate): string {
  return `${kindName(item.kind, t)}: ${item.label}`;
}

function kindName(kind: MentionKind, t: Translate): string {
  switch (kind) {
    case 'file':
      return t('File');
    case 'folder':
      return t('Folder');
    case 'editor':
      return t('Open editor');
    case 'selection':
      return t('Selection');
    case 'problems':
      return t('Problems');
    case 'changes':
      return t('Changes');
    case 'terminal':
      return t('Terminal');
    case 'image':
      return t('Image');
  }
}
