// One conversation saved while 100 are stored (issue 25 item 4): through the store's file storage
// (one JSON file per conversation, written atomically) against the way workspace state costs it
// (VS Code keeps an extension's workspace state as one JSON value: each update is serialised
// whole for the RPC to the main thread, parsed there and serialised again into its database; and
// that value is parsed before `activate()`). Both run in this process on the same synthetic
// state: 100 conversations of 40 turns, about 24 MB. Prints medians of 9 saves each, the ratio
// old/new, and the start-up read (old: parse the whole value; new: read the index and the active
// conversation). Bounded: well under a minute. Asserts nothing about time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileStorage } from '../src/chat/history/core/fileStorage';
import { ConversationStore, isConversationStoreKey } from '../src/chat/history/core/store';
import type { Conversation } from '../src/shared/protocol';
import { MemoryStorage } from '../test/support/memoryStorage';
import { conversationOfTurns } from './support/conversation';
import { median } from './support/stats';

const CONVERSATIONS = 100;
const TURNS = 40;
const SAVES = 9;

function conversation(i: number): Conversation {
  const prose = `Line ${i}: the parser reads the token stream and builds the tree. `.repeat(90);
  return conversationOfTurns(TURNS, () => prose, {
    createdAt: 1_000_000 + i * 1000,
    question: (t) => `question ${t} about ${i}`,
  });
}

/** Workspace state as VS Code handles it: the whole value per update, over RPC and into the database. */
class WholeValueState extends MemoryStorage {
  lastBytes = 0;
  override update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
    const rpc = JSON.stringify(Object.fromEntries(this.data));
    const received = JSON.parse(rpc) as unknown;
    this.lastBytes = JSON.stringify(received).length;
    return Promise.resolve();
  }
  override get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
}

async function timeSaves(store: ConversationStore, c: Conversation, flush: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let s = 0; s < SAVES; s++) {
    const last = c.messages[c.messages.length - 1];
    if (last?.role === 'assistant') last.content += ` more ${s}`;
    c.updatedAt += 1;
    const t0 = performance.now();
    await store.save(c);
    await flush();
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const all = Array.from({ length: CONVERSATIONS }, (_, i) => conversation(i));
  const dir = mkdtempSync(join(tmpdir(), 'gws-bench-history-'));
  try {
    const old = new WholeValueState();
    const files = new FileStorage({ folder: join(dir, 'chat-conversations'), owns: isConversationStoreKey });
    const newStore = new ConversationStore(files);
    for (const c of all) await newStore.save(c);
    const target = all[CONVERSATIONS - 1];
    if (!target) throw new Error('no conversation');
    await newStore.setActive(target.id);
    await files.flushed();
    // The same records in the old place (seeded directly: saving them one by one there is quadratic).
    for (const key of files.keys()) old.data.set(key, files.get(key));
    const oldStore = new ConversationStore(old);
    await oldStore.setActive(target.id);
    console.log(
      `${CONVERSATIONS} conversations of ${TURNS} turns; the whole state ${(old.lastBytes / 1e6).toFixed(1)} MB, one conversation ${(JSON.stringify(target).length / 1e3).toFixed(0)} KB`,
    );

    const oldTimes = await timeSaves(oldStore, structuredClone(target), () => Promise.resolve());
    const newTimes = await timeSaves(newStore, structuredClone(target), () => files.flushed());
    const o = median(oldTimes);
    const nw = median(newTimes);
    console.log(
      `save one conversation, median of ${SAVES}: workspace state ${o.toFixed(1)} ms, files ${nw.toFixed(1)} ms: old/new ${(o / nw).toFixed(1)}x`,
    );

    const whole = JSON.stringify(Object.fromEntries(old.data));
    let t0 = performance.now();
    JSON.parse(whole);
    const oldStart = performance.now() - t0;
    t0 = performance.now();
    const reopened = new ConversationStore(new FileStorage({ folder: files.folder, owns: isConversationStoreKey }));
    const active = reopened.activeId ? reopened.load(reopened.activeId) : undefined;
    const newStart = performance.now() - t0;
    if (active?.id !== target.id) throw new Error('the reopened store did not find the active conversation');
    console.log(
      `start: workspace state parses ${(whole.length / 1e6).toFixed(1)} MB in ${oldStart.toFixed(1)} ms before activate(); files: index + active conversation ${newStart.toFixed(1)} ms (old/new ${(oldStart / newStart).toFixed(1)}x)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
