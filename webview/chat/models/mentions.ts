/**
 * The @-picker and the chips it makes (`mentions/*`): typing `@` at a word start opens it, the
 * text after `@` is the query, the host answers with rows (`mentions/results`) which are re-ranked
 * here at every keystroke with the shared fuzzy scorer, so typing never waits for the host.
 * Picking a row turns `@query` into a chip; Escape closes the picker and leaves the text as typed.
 * The chips themselves are the composer's (they are sent and kept with the draft).
 */
import { batch, signal } from '@preact/signals';
import { newId } from '../../../src/shared/ids';
import type { MentionItem } from '../../../src/shared/protocol';
import { pickerCode } from '../lazy';
import { afterRender, els, post } from '../runtime';
import type { ComposerModel } from './composer';
import type { HostMessageIn } from './routes';

/** The open @-picker: where its `@` is, the query, the host's rows and the ranked ones shown. */
export interface PickerState {
  start: number;
  query: string;
  queryId: string;
  source: MentionItem[];
  items: MentionItem[];
  active: number;
  loading: boolean;
}

/** The `@query` that ends at the caret, if the caret is in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  return { start: caret - m[2]!.length - 1, query: m[2]! };
}

/**
 * What a drop carries: VS Code's explorer and editor tabs put URIs on the drag (its own type, and
 * `text/uri-list`); those go to the host, which makes the chips. Anything else is not ours.
 */
export function droppedUris(dt: DataTransfer): string[] {
  const raw = dt.getData('application/vnd.code.uri-list') || dt.getData('text/uri-list');
  return raw
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !s.startsWith('#'))
    .slice(0, 50);
}

/** The rows ranked for `query`; in the host's order until the picker's chunk (with the ranking) is here. */
function rank(query: string, items: MentionItem[]): MentionItem[] {
  const fuzzy = pickerCode.value.peek()?.fuzzyFilter;
  return query && fuzzy ? fuzzy(query, items, (i) => i.label) : items;
}

function key(i: MentionItem): string {
  return `${i.kind}\u0000${i.ref}\u0000${i.ref ? '' : i.label}`;
}

/** The picker with the host's rows for `queryId`; answers to older queries still feed the ranking. */
function withResults(cur: PickerState, queryId: string, items: MentionItem[]): PickerState {
  const latest = cur.queryId === queryId;
  const source = latest ? items : cur.source;
  const ranked = rank(cur.query, source);
  return {
    ...cur,
    source,
    items: ranked,
    active: Math.min(cur.active, Math.max(0, ranked.length - 1)),
    loading: latest ? false : cur.loading,
  };
}

/** The picker at `at` while the host answers `queryId`: the rows so far, ranked for the new query. */
function openedAt(at: { start: number; query: string }, cur: PickerState | undefined, queryId: string): PickerState {
  const source = cur?.source ?? [];
  return { ...at, queryId, source, items: rank(at.query, source), active: 0, loading: true };
}

/** Those of `items` that are not chips yet, each once (the same kind and target). */
function newChips(have: MentionItem[], items: MentionItem[]): MentionItem[] {
  const seen = new Set(have.map(key));
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function createMentionsModel({ composer }: { composer: ComposerModel }) {
  const picker = signal<PickerState | undefined>(undefined);
  const { draft, mentions: chips } = composer;

  /** Called on every input and caret move of the message box. */
  function update(text: string, caret: number): void {
    const at = mentionAt(text, caret);
    if (!at) {
      if (picker.value) close();
      return;
    }
    const cur = picker.value;
    if (cur && cur.start === at.start && cur.query === at.query) return;
    const queryId = newId('q');
    if (!pickerCode.value.peek()) void pickerCode.load().then(rankAgain);
    picker.value = openedAt(at, cur, queryId);
    post({ type: 'mentions/query', queryId, query: at.query });
  }

  /** The host's rows for a query. */
  function results(queryId: string, items: MentionItem[]): void {
    const cur = picker.value;
    if (cur) picker.value = withResults(cur, queryId, items);
  }

  /** The picker's chunk arrived while it was open: the rows so far get their ranking. */
  function rankAgain(): void {
    const cur = picker.value;
    if (!cur) return;
    picker.value = { ...cur, items: rank(cur.query, cur.source), active: 0 };
  }

  function close(): void {
    picker.value = undefined;
  }

  function move(delta: number): void {
    const cur = picker.value;
    if (!cur || cur.items.length === 0) return;
    const n = cur.items.length;
    picker.value = { ...cur, active: (cur.active + delta + n) % n };
  }

  /** Replaces `@query` in the message with nothing and adds the row as a chip. */
  function pick(index?: number): void {
    const cur = picker.value;
    const item = cur?.items[index ?? cur.active];
    if (!cur || !item) return;
    const text = els.textarea?.value ?? draft.value;
    const end = cur.start + 1 + cur.query.length;
    const next = text.slice(0, cur.start) + text.slice(end).replace(/^ /, '');
    batch(() => {
      draft.value = next;
      add([item]);
      picker.value = undefined;
    });
    afterRender(() => {
      const ta = els.textarea;
      if (!ta) return;
      ta.focus();
      ta.setSelectionRange(cur.start, cur.start);
    });
  }

  /** Chips, each at most once (the same kind and target). */
  function add(items: MentionItem[]): void {
    const fresh = newChips(chips.value, items);
    if (fresh.length) chips.value = [...chips.value, ...fresh];
  }

  function remove(i: number): void {
    chips.value = chips.value.filter((_, j) => j !== i);
  }

  function onHost(msg: HostMessageIn<'mentions'>): void {
    switch (msg.type) {
      case 'mentions/results':
        results(msg.queryId, msg.items);
        return;
      case 'mentions/add':
        add(msg.items);
        for (const p of msg.problems) composer.note(p, 'warning');
        afterRender(() => els.textarea?.focus());
        return;
    }
  }

  return { picker, chips, update, close, move, pick, add, remove, onHost };
}

export type MentionsModel = ReturnType<typeof createMentionsModel>;
