import * as z from '../../../shared/zod';
import {
  conversationSchema,
  historyEntrySchema,
  newId,
  type ChatMessage,
  type Conversation,
  type HistoryEntry,
} from '../../../shared/protocol';
import { repairToolCallIds } from '../../tools/core/ids';
import type { KeyValueStorage } from '../../conversation/core/contracts';
import { imageGoneNote, isStoredImage, type ConversationImageFiles, type StoredImage } from './conversationImages';
import { chatIndexKey, PERSISTED_FAMILIES } from '../../../contracts/persistedState/chat';
import { ConversationParts, isPartKey, PART_MESSAGES, PARTS_VERSION, type PartEntry } from './parts';

/**
 * Version of the stored format. Bump it with a migration in {@link ConversationStore.read}.
 * 1: images inline as data URLs; 2: images as files ({@link ConversationImageFiles}); 3: a long
 * conversation's head, its messages in parts (./parts.ts). A short record without images is still
 * written as 1, so a version that knows only 1 keeps reading it.
 */
export const STORE_VERSION = PERSISTED_FAMILIES.chatConversation.version;
/** The index did not change with the images: older versions keep reading it. */
const INDEX_VERSION = chatIndexKey.version;
const INDEX_KEY = chatIndexKey.key;
const CONV_PREFIX = PERSISTED_FAMILIES.chatConversation.prefix;

const indexSchema = z.object({
  version: z.number().check(z.int()),
  activeId: z.optional(z.string()),
  entries: z.array(historyEntrySchema),
});
type Index = z.infer<typeof indexSchema>;

/** The keys this store reads and writes (a storage of its own keeps only these). */
export function isConversationStoreKey(key: string): boolean {
  return key === INDEX_KEY || key.startsWith(CONV_PREFIX) || isPartKey(key);
}

const recordSchema = z.object({ version: z.number().check(z.int()), conversation: z.unknown() });

/** Why a stored conversation could not be read; the record itself is left untouched. */
export interface StoreProblem {
  id: string;
  problem: string;
}

/** A fresh, empty conversation (not stored until it has a message). */
export function newConversation(now = Date.now()): Conversation {
  return { id: newId('c'), title: '', createdAt: now, updatedAt: now, model: '', params: {}, messages: [] };
}

/** Title from the first user message: its first line, at most 60 characters. */
export function titleFor(c: Conversation): string {
  if (c.title.trim()) return c.title;
  const first = c.messages.find((m) => m.role === 'user');
  const text =
    first?.role === 'user'
      ? ((first.text.trim() ||
          first.contexts[0]?.fileName ||
          first.attachments?.[0]?.label ||
          (first.images.length ? first.images[0]?.name : '')) ??
        '')
      : '';
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * Conversations persisted as versioned JSON: one record per conversation (so a save writes only
 * what changed) plus an index for the history list. A record that does not parse (hand-edited,
 * or written by a newer version) is reported and skipped, never overwritten or deleted, so
 * nothing the user made is lost by a downgrade.
 */
export class ConversationStore {
  private index: Index;
  readonly problems: StoreProblem[] = [];
  /**
   * Ids deleted in this session. A turn that was running when its conversation was deleted (or a
   * save already queued) still saves its final state afterwards; without this the deleted
   * conversation would come back into the history.
   */
  private readonly deleted = new Set<string>();
  private readonly parts: ConversationParts;
  /** Conversations stored in parts (read or written so), whose parts go when one is short again. */
  private readonly long = new Set<string>();
  /** Per conversation, the save or delete under way (see {@link save}). */
  private readonly busy = new Map<string, Promise<void>>();

  /** @param images where images go as files; without it they stay inline (tests, no storage folder). */
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly images?: ConversationImageFiles,
  ) {
    this.parts = new ConversationParts(storage);
    const stored = new Set(storage.keys());
    void this.parts.sweep((id) => stored.has(CONV_PREFIX + id)).catch(() => undefined);
    const raw = storage.get<unknown>(INDEX_KEY);
    const parsed = indexSchema.safeParse(raw);
    if (parsed.success && parsed.data.version <= INDEX_VERSION) {
      this.index = this.withOrphans(parsed.data);
    } else {
      if (raw !== undefined)
        this.problems.push({
          id: INDEX_KEY,
          problem: 'history index unreadable; rebuilt from the stored conversations',
        });
      this.index = this.rebuildIndex();
    }
  }

  /** History newest first. */
  list(): HistoryEntry[] {
    return [...this.index.entries].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  get activeId(): string | undefined {
    return this.index.activeId;
  }

  async setActive(id: string | undefined): Promise<void> {
    if (id !== undefined && this.deleted.has(id)) return;
    this.index = { ...this.index, activeId: id };
    await this.storage.update(INDEX_KEY, this.index);
  }

  /** The conversation, or undefined when missing or unreadable (see {@link problems}). */
  load(id: string): Conversation | undefined {
    return this.read(id);
  }

  /**
   * Writes the conversation and its history entry. Empty conversations are not stored. Saves of
   * one conversation run one after the other, so the last asked for is the one stored. What is
   * written is taken when its save starts (at once, unless one of the same conversation is under
   * way): the caller may go on changing `c`. `dirtyFrom`: the caller's promise that messages
   * before it are as they were at its previous save (a long conversation then writes only the
   * parts after it).
   */
  save(c: Conversation, o: { dirtyFrom?: number } = {}): Promise<void> {
    return this.inTurn(c.id, () => this.saveNow(c, o));
  }

  /** Runs `f` after whatever this store is doing with conversation `id`; at once when nothing. */
  private inTurn(id: string, f: () => Promise<void>): Promise<void> {
    const before = this.busy.get(id);
    const run = before ? before.then(f) : f();
    const tail = run.catch(() => undefined);
    this.busy.set(id, tail);
    void tail.then(() => {
      if (this.busy.get(id) === tail) this.busy.delete(id);
    });
    return run;
  }

  private async saveNow(c: Conversation, o: { dirtyFrom?: number }): Promise<void> {
    if (c.messages.length === 0 || this.deleted.has(c.id)) return;
    const title = titleFor(c);
    const entry: HistoryEntry = { id: c.id, title, updatedAt: c.updatedAt, messageCount: c.messages.length };
    const { files, added } =
      c.messages.length > PART_MESSAGES ? await this.saveParts(c, title, o.dirtyFrom) : await this.saveWhole(c, title);
    const entries = this.index.entries.filter((e) => e.id !== c.id);
    entries.push(entry);
    this.index = { ...this.index, entries };
    await this.storage.update(INDEX_KEY, this.index);
    if (added) await this.enforceImageLimit(files);
  }

  /** A short conversation: one record (version 1, or 2 with images as files). */
  private async saveWhole(c: Conversation, title: string): Promise<{ files: Set<string>; added: boolean }> {
    const copy = structuredClone({ ...c, title });
    const { stored, files, added } = await this.storeMessages(copy.messages);
    await this.storage.update(CONV_PREFIX + c.id, {
      version: files.size ? 2 : 1,
      conversation: { ...copy, messages: stored },
    });
    // It was long before (an edit cut it): its parts are no longer listed by any head.
    if (this.long.delete(c.id)) await this.parts.drop(c.id).catch(() => undefined);
    return { files, added };
  }

  /** A long conversation: its head, and the parts that changed ({@link ConversationParts}). */
  private async saveParts(
    c: Conversation,
    title: string,
    dirtyFrom: number | undefined,
  ): Promise<{ files: Set<string>; added: boolean }> {
    const header = structuredClone({ ...c, title, messages: [] });
    const head = (parts: PartEntry[]) => ({ version: PARTS_VERSION, conversation: header, parts });
    const r = await this.parts.save(c, CONV_PREFIX + c.id, head, {
      ...(dirtyFrom !== undefined ? { dirtyFrom } : {}),
      storeMessages: (m) => this.storeMessages(m as ChatMessage[]),
    });
    this.long.add(c.id);
    return r;
  }

  /** Messages as stored: each image written to a file (an image that cannot be stays inline). */
  private async storeMessages(
    list: readonly ChatMessage[],
  ): Promise<{ stored: unknown[]; files: Set<string>; added: boolean }> {
    const files = new Set<string>();
    let added = false;
    const images = this.images;
    if (!images) return { stored: [...list], files, added };
    const messages: unknown[] = [];
    for (const m of list) {
      if (m.role !== 'user' || m.images.length === 0) {
        messages.push(m);
        continue;
      }
      const out: unknown[] = [];
      for (const img of m.images) {
        try {
          const put = await images.put(img.dataUrl);
          files.add(put.file);
          added ||= put.added;
          out.push({ name: img.name, mime: img.mime, bytes: img.bytes, file: put.file } satisfies StoredImage);
        } catch {
          out.push(img);
        }
      }
      messages.push({ ...m, images: out });
    }
    return { stored: messages, files, added };
  }

  /** Image files every stored record refers to (scanned without reading any image). */
  private referencedImages(): Set<string> {
    const out = new Set<string>();
    type Stored = { images?: unknown[] }[];
    for (const key of this.storage.keys()) {
      let messages: Stored | undefined;
      if (key.startsWith(CONV_PREFIX))
        messages = this.storage.get<{ conversation?: { messages?: Stored } }>(key)?.conversation?.messages;
      else if (isPartKey(key)) messages = this.storage.get<{ messages?: Stored }>(key)?.messages;
      for (const m of Array.isArray(messages) ? messages : [])
        for (const img of m.images ?? []) if (isStoredImage(img)) out.add(img.file);
    }
    return out;
  }

  private async enforceImageLimit(keep: ReadonlySet<string>): Promise<void> {
    await this.images?.enforce(this.referencedImages(), keep).catch(() => undefined);
  }

  async rename(id: string, title: string): Promise<Conversation | undefined> {
    const c = this.read(id);
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (!c || !clean) return undefined;
    const next = { ...c, title: clean };
    // Only the title changed: a long conversation writes its head, not its parts.
    await this.save(next, { dirtyFrom: next.messages.length });
    return next;
  }

  async delete(id: string): Promise<void> {
    this.deleted.add(id);
    // After a save of it under way, which would otherwise write its head back.
    await this.inTurn(id, async () => this.storage.update(CONV_PREFIX + id, undefined));
    this.long.delete(id);
    await this.parts.drop(id);
    this.index = {
      ...this.index,
      activeId: this.index.activeId === id ? undefined : this.index.activeId,
      entries: this.index.entries.filter((e) => e.id !== id),
    };
    await this.storage.update(INDEX_KEY, this.index);
    // Its images go too, unless another conversation has the same image.
    await this.enforceImageLimit(new Set());
  }

  private read(id: string): Conversation | undefined {
    const raw = this.storage.get<unknown>(CONV_PREFIX + id);
    if (raw === undefined) return undefined;
    const rec = recordSchema.safeParse(raw);
    if (!rec.success) {
      this.report(id, 'not a conversation record');
      return undefined;
    }
    if (rec.data.version > STORE_VERSION) {
      this.report(id, `written by a newer version of Gateway Studio (format ${rec.data.version}); left as it is`);
      return undefined;
    }
    let conversation = rec.data.conversation;
    let inParts: { list: PartEntry[]; counts: number[] } | undefined;
    if (rec.data.version === PARTS_VERSION) {
      const r = this.parts.read(raw as { parts?: unknown });
      if ('problem' in r) {
        this.report(id, r.problem);
        return undefined;
      }
      conversation = { ...(conversation as object), messages: r.messages };
      inParts = { list: (raw as { parts: PartEntry[] }).parts, counts: r.counts };
    }
    const conv = conversationSchema.safeParse(rec.data.version >= 2 ? this.withImageData(conversation) : conversation);
    if (!conv.success) {
      const issue = conv.error.issues[0];
      this.report(id, `invalid at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`);
      return undefined;
    }
    // A record saved mid-answer (a setting changed while streaming, then the window closed): the
    // stream that fed it is gone, so the answer is over; shown as stopped, its text kept.
    let changed = 0;
    for (const m of conv.data.messages)
      if (m.role === 'assistant' && m.status === 'streaming') [m.status, changed] = ['stopped', changed + 1];
    // Stored before ids were made unique across a conversation: a later answer may reuse `call_0`,
    // which would send one id on two assistant messages and put results on the wrong card.
    changed += repairToolCallIds(conv.data);
    if (inParts) {
      this.long.add(id);
      // Read exactly as stored: the next save may keep the parts it still matches.
      if (changed === 0) this.parts.loaded(conv.data, inParts.list, inParts.counts);
    }
    return conv.data;
  }

  /**
   * A record's images back as data URLs (a new object: the stored one is not changed). An image
   * whose file is gone becomes a note among the message's attachments, which the model sees too.
   */
  private withImageData(raw: unknown): unknown {
    const c = raw as { messages?: unknown };
    if (typeof raw !== 'object' || raw === null || !Array.isArray(c.messages)) return raw;
    const messages = c.messages.map((m: unknown) => {
      const user = m as { role?: unknown; images?: unknown; attachments?: unknown };
      if (user.role !== 'user' || !Array.isArray(user.images)) return m;
      const images: unknown[] = [];
      const notes: unknown[] = [];
      for (const img of user.images) {
        if (!isStoredImage(img)) {
          images.push(img);
          continue;
        }
        const dataUrl = this.images?.read(img);
        if (dataUrl) images.push({ name: img.name, mime: img.mime, bytes: img.bytes, dataUrl });
        else notes.push({ kind: 'image', label: img.name, text: '', note: imageGoneNote(img.name) });
      }
      const attachments = Array.isArray(user.attachments) ? user.attachments : [];
      return { ...user, images, ...(notes.length ? { attachments: [...attachments, ...notes] } : {}) };
    });
    return { ...c, messages };
  }

  private report(id: string, problem: string): void {
    if (!this.problems.some((p) => p.id === id)) this.problems.push({ id, problem });
  }

  /**
   * The index plus a stored record it does not list: one written just before a crash cut off the
   * index write, or one saved by an earlier version after this one had moved the index out of its
   * storage. Only those records are read.
   */
  private withOrphans(index: Index): Index {
    const listed = new Set(index.entries.map((e) => e.id));
    const found: HistoryEntry[] = [];
    for (const key of this.storage.keys()) {
      const id = key.slice(CONV_PREFIX.length);
      if (!key.startsWith(CONV_PREFIX) || listed.has(id)) continue;
      const c = this.read(id);
      if (c) found.push({ id, title: titleFor(c), updatedAt: c.updatedAt, messageCount: c.messages.length });
    }
    return found.length ? { ...index, entries: [...index.entries, ...found] } : index;
  }

  private rebuildIndex(): Index {
    const entries: HistoryEntry[] = [];
    for (const key of this.storage.keys()) {
      if (!key.startsWith(CONV_PREFIX)) continue;
      const c = this.read(key.slice(CONV_PREFIX.length));
      if (c) entries.push({ id: c.id, title: titleFor(c), updatedAt: c.updatedAt, messageCount: c.messages.length });
    }
    return { version: INDEX_VERSION, entries };
  }
}
