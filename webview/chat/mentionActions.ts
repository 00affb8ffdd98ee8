/**
 * The @-picker: typing `@` at a word start opens it, the text after `@` is the query, the host
 * answers with rows (`mentions/results`) which are re-ranked here at every keystroke with the
 * shared fuzzy scorer, so typing never waits for the host. Picking a row turns `@query` into a
 * chip; Escape closes the picker and leaves the text as typed.
 */
import { batch } from '@preact/signals';
import { fuzzyFilter } from '../../src/shared/fuzzy';
import { newId } from '../../src/shared/ids';
import type { MentionItem } from '../../src/shared/protocol';
import { afterRender, els, post } from './runtime';
import { draft, mentions, picker } from './state';

/** The `@query` that ends at the caret, if the caret is in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  return { start: caret - m[2]!.length - 1, query: m[2]! };
}

/** Called on every input and caret move of the message box. */
export function updatePicker(text: string, caret: number): void {
  const at = mentionAt(text, caret);
  if (!at) {
    if (picker.value) closePicker();
    return;
  }
  const cur = picker.value;
  if (cur && cur.start === at.start && cur.query === at.query) return;
  const queryId = newId('q');
  const source = cur?.source ?? [];
  picker.value = {
    start: at.start,
    query: at.query,
    queryId,
    source,
    items: rank(at.query, source),
    active: 0,
    loading: true,
  };
  post({ type: 'mentions/query', queryId, query: at.query });
}

function rank(query: string, items: MentionItem[]): MentionItem[] {
  return query ? fuzzyFilter(query, items, (i) => i.label) : items;
}

/** The host's rows for a query; answers to older queries still feed the ranking. */
export function pickerResults(queryId: string, items: MentionItem[]): void {
  const cur = picker.value;
  if (!cur) return;
  const latest = cur.queryId === queryId;
  const source = latest ? items : cur.source;
  const ranked = rank(cur.query, source);
  picker.value = {
    ...cur,
    source,
    items: ranked,
    active: Math.min(cur.active, Math.max(0, ranked.length - 1)),
    loading: latest ? false : cur.loading,
  };
}

export function closePicker(): void {
  picker.value = undefined;
}

export function movePicker(delta: number): void {
  const cur = picker.value;
  if (!cur || cur.items.length === 0) return;
  const n = cur.items.length;
  picker.value = { ...cur, active: (cur.active + delta + n) % n };
}

/** Replaces `@query` in the message with nothing and adds the row as a chip. */
export function pick(index?: number): void {
  const cur = picker.value;
  const item = cur?.items[index ?? cur.active];
  if (!cur || !item) return;
  const text = els.textarea?.value ?? draft.value;
  const end = cur.start + 1 + cur.query.length;
  const next = text.slice(0, cur.start) + text.slice(end).replace(/^ /, '');
  batch(() => {
    draft.value = next;
    addMentions([item]);
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
export function addMentions(items: MentionItem[]): void {
  const have = new Set(mentions.value.map(key));
  const fresh = items.filter((i) => {
    const k = key(i);
    if (have.has(k)) return false;
    have.add(k);
    return true;
  });
  if (fresh.length) mentions.value = [...mentions.value, ...fresh];
}

export function removeMention(i: number): void {
  mentions.value = mentions.value.filter((_, j) => j !== i);
}

function key(i: MentionItem): string {
  return `${i.kind}\u0000${i.ref}\u0000${i.ref ? '' : i.label}`;
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
