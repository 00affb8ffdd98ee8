import type { ChatMessage, Conversation } from '../../../shared/protocol';
import type { KeyValueStorage } from '../../conversation/core/contracts';
import { PERSISTED_FAMILIES } from '../../../contracts/persistedState/chat';

/**
 * A long conversation stored as a head plus parts of {@link PART_MESSAGES} messages, so that a
 * save during an agent loop writes the part that changed (the last one, as a rule) instead of the
 * whole conversation: with one record, every save of a 1 MB conversation copied, serialised and
 * wrote 1 MB, and each step of a long session grew slower with it.
 *
 * Which parts changed is known two ways. The caller may promise that messages before `dirtyFrom`
 * are as they were at its previous save (a turn appends and edits only its own messages); a part
 * wholly before that point, holding the very message objects it held when written, is kept as it
 * is. Any other part is serialised and compared with what was written. Without a promise every
 * part is compared, which still writes only the changed ones.
 *
 * Parts are copy-on-write: a changed part goes to a new key (the conversation's next generation),
 * the head listing the new keys is written after every part has landed, and the parts it no
 * longer lists are removed last. A save cut off anywhere leaves the old head and all its parts.
 */

/** Messages per part: the last part, rewritten while an answer streams, stays small. */
export const PART_MESSAGES = 32;
export const PARTS_VERSION = 3;
const PART_PREFIX = PERSISTED_FAMILIES.chatConversationPart.prefix;
/** Conversations whose written parts are remembered (the one streaming, and a few more). */
const REMEMBERED = 4;

/** One part as the head lists it. */
export interface PartEntry {
  key: string;
  count: number;
}

interface WrittenPart extends PartEntry {
  /** The message objects it held when written (same objects: unchanged, if the caller says so). */
  refs: readonly ChatMessage[];
  /** Its messages' JSON as captured then (undefined for a part read back from storage). */
  raw?: string;
}

interface Written {
  parts: WrittenPart[];
  nextGen: number;
}

/** What a part's messages are stored as (images moved to files), with the image files it uses. */
export type StoreMessages = (messages: unknown[]) => Promise<{ stored: unknown[]; files: Set<string>; added: boolean }>;

/** The key prefix of a conversation's parts. */
function partPrefix(conversationId: string): string {
  return `${PART_PREFIX}${conversationId}.`;
}

/** The stored keys of one conversation's parts (by the id they name: an id may hold a '.'). */
function partKeysOf(storage: KeyValueStorage, id: string): string[] {
  return storage.keys().filter((k) => isPartKey(k) && conversationOfPart(k) === id);
}

export function isPartKey(key: string): boolean {
  return key.startsWith(PART_PREFIX);
}

/** The conversation a part key belongs to (the generation follows the last '.'). */
function conversationOfPart(key: string): string {
  return key.slice(PART_PREFIX.length, key.lastIndexOf('.'));
}

function generationOf(key: string): number {
  const n = Number(key.slice(key.lastIndexOf('.') + 1));
  return Number.isSafeInteger(n) && n >= 0 ? n : -1;
}

function sameRefs(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'user' && m.images.length > 0);
}

/** A part to write: its key, its messages as captured, and whether they carry images. */
interface NewPart extends WrittenPart {
  raw: string;
  images: boolean;
}

/** The parts of one save, decided at the moment it is asked for. */
interface Plan {
  parts: WrittenPart[];
  fresh: NewPart[];
  nextGen: number;
  /** Keys of this conversation the new head does not list (removed once it is written). */
  stale: string[];
}

export class ConversationParts {
  private readonly written = new Map<string, Written>();

  constructor(private readonly storage: KeyValueStorage) {}

  /**
   * Writes `c`'s messages as parts and then `head` (built from the part list) under `headKey`.
   * Everything it writes is captured before the first await, so the caller may go on changing `c`.
   * Resolves with the image files the written parts use, and whether one was added.
   */
  async save(
    c: Conversation,
    headKey: string,
    head: (parts: PartEntry[]) => unknown,
    o: { dirtyFrom?: number; storeMessages: StoreMessages },
  ): Promise<{ files: Set<string>; added: boolean }> {
    const plan = this.plan(c, o.dirtyFrom ?? 0);
    const headValue = head(plan.parts.map(({ key, count }) => ({ key, count })));
    const files = new Set<string>();
    let added = false;
    try {
      await Promise.all(
        plan.fresh.map(async (p) => {
          const messages = JSON.parse(p.raw) as unknown[];
          let stored = messages;
          if (p.images) {
            const r = await o.storeMessages(messages);
            stored = r.stored;
            for (const f of r.files) files.add(f);
            added ||= r.added;
          }
          await this.storage.update(p.key, { version: PARTS_VERSION, messages: stored });
        }),
      );
      await this.storage.update(headKey, headValue);
    } catch (e) {
      // What is on disk is the previous head: forget what was planned, and its new parts.
      this.written.delete(c.id);
      await Promise.all(plan.fresh.map((p) => this.storage.update(p.key, undefined))).catch(() => undefined);
      throw e;
    }
    this.remember(c.id, { parts: plan.parts, nextGen: plan.nextGen });
    await Promise.all(plan.stale.map((k) => this.storage.update(k, undefined))).catch(() => undefined);
    return { files, added };
  }

  private plan(c: Conversation, dirtyFrom: number): Plan {
    let prev = this.written.get(c.id);
    let stale: string[] = [];
    if (!prev) {
      // Not written or read in this session: whatever is stored under its prefix goes once the
      // new head is in place, and new parts take generations after the highest found.
      const found = partKeysOf(this.storage, c.id);
      stale = found;
      prev = { parts: [], nextGen: Math.max(0, ...found.map((k) => generationOf(k) + 1)) };
    }
    let nextGen = prev.nextGen;
    const parts: WrittenPart[] = [];
    const fresh: NewPart[] = [];
    for (let start = 0, k = 0; start < c.messages.length; start += PART_MESSAGES, k++) {
      const refs = c.messages.slice(start, start + PART_MESSAGES);
      const old = prev.parts[k];
      if (old && start + refs.length <= dirtyFrom && sameRefs(old.refs, refs)) {
        parts.push(old);
        continue;
      }
      const raw = JSON.stringify(refs);
      if (old?.raw === raw) {
        parts.push({ ...old, refs });
        continue;
      }
      const part: NewPart = {
        key: partPrefix(c.id) + String(nextGen++),
        count: refs.length,
        refs,
        raw,
        images: hasImages(refs),
      };
      parts.push(part);
      fresh.push(part);
    }
    const kept = new Set(parts.map((p) => p.key));
    stale = [...stale, ...prev.parts.map((p) => p.key)].filter((k) => !kept.has(k));
    return { parts, fresh, nextGen, stale };
  }

  private remember(id: string, w: Written): void {
    this.written.delete(id);
    this.written.set(id, w);
    if (this.written.size > REMEMBERED) this.written.delete(this.written.keys().next().value ?? '');
  }

  /**
   * The messages of a head's parts, in order, or why they cannot be read. The parts are not
   * checked here beyond their envelope: the store checks the conversation they make.
   */
  read(head: { parts?: unknown }): { messages: unknown[]; counts: number[] } | { problem: string } {
    if (!Array.isArray(head.parts)) return { problem: 'a long conversation without its list of parts' };
    const messages: unknown[] = [];
    const counts: number[] = [];
    for (const [i, entry] of head.parts.entries()) {
      const key = (entry as Partial<PartEntry> | null)?.key;
      if (typeof key !== 'string' || !key.startsWith(PART_PREFIX))
        return { problem: `part ${i + 1} of ${head.parts.length} is not named` };
      const part = PERSISTED_FAMILIES.chatConversationPart.check(this.storage.get<unknown>(key));
      if (!part) return { problem: `part ${i + 1} of ${head.parts.length} (${key}) is missing or unreadable` };
      const list = (part as { messages: unknown[] }).messages;
      messages.push(...list);
      counts.push(list.length);
    }
    return { messages, counts };
  }

  /**
   * Remembers a conversation as read, so that the next save keeps the parts its messages still
   * match. Only when the read messages are exactly what is stored (nothing repaired on the way).
   */
  loaded(c: Conversation, parts: PartEntry[], counts: number[]): void {
    const written: WrittenPart[] = [];
    let start = 0;
    for (const [i, p] of parts.entries()) {
      const count = counts[i] ?? 0;
      written.push({ key: p.key, count, refs: c.messages.slice(start, start + count) });
      start += count;
    }
    if (start !== c.messages.length) return;
    const nextGen = Math.max(0, ...parts.map((p) => generationOf(p.key) + 1));
    this.remember(c.id, { parts: written, nextGen });
  }

  /** Removes every part of a conversation (it was deleted, or is short again and stored whole). */
  async drop(id: string): Promise<void> {
    this.written.delete(id);
    const keys = partKeysOf(this.storage, id);
    await Promise.all(keys.map((k) => this.storage.update(k, undefined)));
  }

  /** Parts whose conversation has no record at all (a delete cut off midway): removed. */
  async sweep(hasRecord: (id: string) => boolean): Promise<number> {
    const orphans = this.storage.keys().filter((k) => isPartKey(k) && !hasRecord(conversationOfPart(k)));
    await Promise.all(orphans.map((k) => this.storage.update(k, undefined)));
    return orphans.length;
  }
}
