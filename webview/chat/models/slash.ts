/**
 * The `/` menu: typing `/` at the start of the message opens it and asks the host for the prompt
 * files and skills (`slash/list`); the text after `/` filters the rows (the shared fuzzy scorer,
 * on the name); arrows move, Enter or Tab puts `/name ` in the message, Escape closes the menu
 * and leaves the text as typed. Sending `/name …` runs the command on the host. Part of the
 * menu's chunk (lazy.ts): a page that never types `/` never loads it.
 */
import { batch, signal } from '@preact/signals';
import { fuzzyFilter } from '../../../src/shared/fuzzy';
import type { SlashItem } from '../../../src/shared/protocol';
import { afterRender, els, post } from '../runtime';
import type { ComposerModel } from './composer';
import type { HostMessageIn } from './routes';

export interface SlashMenuState {
  query: string;
  /** The host's rows (empty until it answers). */
  source: SlashItem[];
  /** The rows shown: `source` ranked for `query`. */
  items: SlashItem[];
  active: number;
  loading: boolean;
}

/** The command name being typed: the text after a leading `/` up to the caret, if it has no space. */
export function slashQuery(text: string, caret: number): string | undefined {
  const m = /^\/([^\s/]*)$/.exec(text.slice(0, caret));
  return m ? m[1] : undefined;
}

function rank(query: string, items: SlashItem[]): SlashItem[] {
  return query ? fuzzyFilter(query, items, (i) => i.name) : items;
}

/** What of a key event the menu reads. */
export interface MenuKey {
  key: string;
  shiftKey?: boolean;
  isComposing?: boolean;
  preventDefault(): void;
  stopPropagation(): void;
}

export function createSlashModel({ composer }: { composer: Pick<ComposerModel, 'draft'> }) {
  const menu = signal<SlashMenuState | undefined>(undefined);
  const { draft } = composer;

  /** Called on every input and caret move of the message box. */
  function update(text: string, caret: number): void {
    const query = slashQuery(text, caret);
    const cur = menu.value;
    if (query === undefined) {
      if (cur) close();
      return;
    }
    if (cur) {
      if (cur.query !== query) menu.value = { ...cur, query, items: rank(query, cur.source), active: 0 };
      return;
    }
    // Asked at every opening: a prompt file added meanwhile is listed.
    menu.value = { query, source: [], items: [], active: 0, loading: true };
    post({ type: 'slash/list' });
  }

  function onHost(msg: HostMessageIn<'slash'>): void {
    const cur = menu.value;
    if (msg.type !== 'slash/commands' || !cur) return;
    const items = rank(cur.query, msg.items);
    menu.value = {
      ...cur,
      source: msg.items,
      items,
      active: Math.min(cur.active, Math.max(0, items.length - 1)),
      loading: false,
    };
  }

  function close(): void {
    menu.value = undefined;
  }

  function move(delta: number): void {
    const cur = menu.value;
    if (!cur || cur.items.length === 0) return;
    const n = cur.items.length;
    menu.value = { ...cur, active: (cur.active + delta + n) % n };
  }

  /** Puts `/name ` in place of what was typed before the caret, keeping the rest of the message. */
  function pick(index?: number): void {
    const cur = menu.value;
    const item = cur?.items[index ?? cur.active];
    if (!cur || !item) return;
    const text = els.textarea?.value ?? draft.value;
    const after = text.slice(1 + cur.query.length).replace(/^\s+/, '');
    const head = `/${item.name} `;
    batch(() => {
      draft.value = head + after;
      menu.value = undefined;
    });
    afterRender(() => {
      const ta = els.textarea;
      if (!ta) return;
      ta.focus();
      ta.setSelectionRange(head.length, head.length);
    });
  }

  /** The open menu's keys; true when the key was the menu's (the composer then does nothing more). */
  function keyDown(ev: MenuKey): boolean {
    const cur = menu.value;
    if (!cur || ev.isComposing) return false;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      Enter: () => pick(),
      Tab: () => pick(),
      Escape: close,
    };
    const act = keys[ev.key];
    if (!act || (ev.key === 'Enter' && ev.shiftKey)) return false;
    // No rows: Enter sends the text as typed; the other keys still belong to the menu.
    if (cur.items.length === 0 && (ev.key === 'Enter' || ev.key === 'Tab')) return false;
    ev.preventDefault();
    ev.stopPropagation();
    act();
    return true;
  }

  return { menu, update, onHost, close, move, pick, keyDown };
}

export type SlashModel = ReturnType<typeof createSlashModel>;
