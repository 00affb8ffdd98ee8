/**
 * The `/` menu under the message box: prompt files and skills, each with its description and
 * argument hint. A listbox whose active row the textarea names (focus stays in the textarea), in
 * the mention picker's look. A chunk loaded when `/` is first typed (lazy.ts), with its model.
 */
import type { JSX } from 'preact';
import { useChat } from '../useChat';
import { createSlashModel, type SlashModel } from '../models/slash';
import type { ComposerModel } from '../models/composer';
import { Icon } from './buttons';

export const SLASH_MENU_ID = 'slash-menu';
export const slashOptionId = (i: number): string => `slash-opt-${i}`;

let model: SlashModel | undefined;

/** The page's one `/` menu model (one composer per page), made on first use. */
export function slashModel(composer: Pick<ComposerModel, 'draft'>): SlashModel {
  return (model ??= createSlashModel({ composer }));
}

export function SlashMenu(): JSX.Element | null {
  const { t, composer } = useChat();
  const m = slashModel(composer);
  const s = m.menu.value;
  if (!s) return null;
  return (
    <div class="mention-picker slash-menu">
      <ul id={SLASH_MENU_ID} role="listbox" aria-label={t('Prompt files and skills')}>
        {s.items.map((item, i) => (
          <li
            key={`${item.kind}:${item.name}`}
            id={slashOptionId(i)}
            role="option"
            aria-selected={i === s.active}
            class={i === s.active ? 'active' : undefined}
            // Keep the focus in the textarea: a mousedown there would blur it first.
            onMouseDown={(ev) => ev.preventDefault()}
            onClick={() => m.pick(i)}
          >
            <Icon name={item.kind === 'skill' ? 'lightbulb' : 'file-text'} />
            <span class="mention-label">/{item.name}</span>
            {item.argumentHint ? <span class="mention-detail">{item.argumentHint}</span> : null}
            {item.description ? <span class="mention-detail">{item.description}</span> : null}
          </li>
        ))}
      </ul>
      {s.items.length === 0 ? (
        <p class="mention-empty" role="status">
          {s.loading
            ? t('Searching…')
            : s.source.length === 0
              ? t('No prompt files or skills found.')
              : t('Nothing matches "{0}".', s.query)}
        </p>
      ) : null}
    </div>
  );
}
