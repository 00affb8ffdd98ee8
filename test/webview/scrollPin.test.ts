import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage, ChatMessage } from '../../src/shared/protocol';
import { openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * While an answer streams the log stays at its end by CSS scroll anchoring (webview/chat/scrollPin.ts),
 * and a user who scrolled up to read stays where they are.
 */

const browser = useBrowser();

const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: '',
  status: 'streaming',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

/** A conversation of `turns` finished turns, long enough to scroll. */
function history(turns: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ id: `u${i}`, role: 'user', text: `question ${i}`, images: [], contexts: [], createdAt: 1 });
    out.push(answer(`a${i}`, { content: `Answer ${i}.\n\n${'Some words here. '.repeat(20)}`, status: 'done' }));
  }
  return out;
}

interface LogGlobal {
  document: { querySelector(s: string): { scrollTop: number; scrollHeight: number; clientHeight: number } | null };
}
const logBox = (h: Harness) =>
  h.page.evaluate(() => {
    const log = (globalThis as unknown as LogGlobal).document.querySelector('.log')!;
    return { top: log.scrollTop, height: log.scrollHeight, client: log.clientHeight };
  });
const atEnd = (b: { top: number; height: number; client: number }) => b.height - b.top - b.client <= 2;

/** Streams `lines` lines into answer `id`, one delta per frame, as a fast stream arrives. */
async function streamLines(h: Harness, id: string, from: number, lines: number): Promise<void> {
  for (let i = from; i < from + lines; i++)
    await h.send({ type: 'chat/delta', requestId: 'r1', messageId: id, content: `Line ${i} of the answer.\n\n` });
}

async function startAnswer(h: Harness, turns: number): Promise<void> {
  await h.send(
    snapshot({
      busyRequestId: 'r1',
      conversation: {
        id: 'c1',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        model: '',
        params: {},
        messages: [...history(turns), { id: 'uq', role: 'user', text: 'go', images: [], contexts: [], createdAt: 1 }],
      },
    }),
  );
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('live') });
}

void test('a streaming answer keeps the log at its end, also when it starts in a log that did not scroll yet', async () => {
  for (const turns of [0, 12]) {
    const h = await openHarness(browser());
    await startAnswer(h, turns);
    await streamLines(h, 'live', 0, 60);
    const b = await logBox(h);
    assert.ok(b.height > b.client * 1.5, `the log overflows (${turns} turns before)`);
    assert.ok(atEnd(b), `at the end after streaming (${turns} turns before): ${JSON.stringify(b)}`);
    await h.page.context().close();
  }
});

void test('a user who scrolled up while an answer streams stays where they are; their next message brings the end back', async () => {
  const h = await openHarness(browser());
  await startAnswer(h, 12);
  await streamLines(h, 'live', 0, 20);
  assert.ok(atEnd(await logBox(h)));
  await h.page.mouse.move(200, 300);
  await h.page.mouse.wheel(0, -400);
  await h.frames();
  await h.frames();
  const up = await logBox(h);
  assert.ok(!atEnd(up), 'the wheel scrolled up');
  await streamLines(h, 'live', 20, 40);
  const after = await logBox(h);
  assert.ok(after.height > up.height + 200, 'the answer grew below');
  assert.ok(Math.abs(after.top - up.top) <= 1, `the view moved from ${up.top} to ${after.top} while the user read`);

  await h.send({ type: 'chat/done', requestId: 'r1', message: answer('live', { status: 'done', content: 'x' }) });
  await h.send({
    type: 'chat/message',
    requestId: 'r2',
    message: { id: 'u-next', role: 'user', text: 'next', images: [], contexts: [], createdAt: 3 },
  });
  assert.ok(atEnd(await logBox(h)), 'sending a message shows the end again');
  await h.page.context().close();
});
