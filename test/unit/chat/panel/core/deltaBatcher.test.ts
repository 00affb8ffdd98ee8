import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DeltaBatcher,
  LEADING_GAP_MS,
  MAX_HOLD_MS,
  MAX_IN_FLIGHT,
  type DeltaClock,
  type PendingDelta,
} from '../../../../../src/chat/panel/core/deltaBatcher';

/** A clock whose time moves only when told; timers run when their time is reached. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; seq: number; cb: () => void }[] = [];
  let seq = 0;
  const clock: DeltaClock = {
    now: () => now,
    schedule: (cb, delay) => {
      const t = { at: now + Math.max(0, delay), seq: seq++, cb };
      timers.push(t);
      return () => void (timers = timers.filter((x) => x !== t));
    },
  };
  /** Moves time to `to`, running each due timer at its own time, in order. */
  const advance = (ms: number): void => {
    const to = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.cb();
    }
    now = to;
  };
  /** The next turn of the event loop: timers scheduled with delay 0. */
  const tick = (): void => advance(0);
  return { clock, advance, tick, pendingTimers: () => timers.length };
}

function setup() {
  const c = fakeClock();
  const posts: { at: number; batch: Map<string, PendingDelta> }[] = [];
  const b = new DeltaBatcher((batch) => void posts.push({ at: c.clock.now(), batch }), c.clock);
  const text = () => posts.map((p) => [...p.batch.values()].map((d) => d.content).join('|'));
  return { ...c, b, posts, text };
}

void test('the first delta of a burst is posted on the next turn, not after a timer; deltas of the same turn go together', () => {
  const s = setup();
  s.b.add('r1', 'a1', { content: 'He' });
  s.b.add('r1', 'a1', { content: 'llo' });
  assert.equal(s.posts.length, 0, 'posted inside the call that received the delta');
  s.tick();
  assert.deepEqual(s.text(), ['Hello']);
  assert.equal(s.posts[0]?.at, 0, 'the first post waited for time to pass');
});

void test(`after a post, further deltas are coalesced into at most one post per ${LEADING_GAP_MS} ms, in order and complete`, () => {
  const s = setup();
  const sent: string[] = [];
  // 1,000 chunks/s for 100 ms: one chunk per ms.
  for (let i = 0; i < 100; i++) {
    const piece = `t${i} `;
    sent.push(piece);
    s.b.add('r1', 'a1', { content: piece, reasoning: i % 10 === 0 ? `r${i}` : undefined });
    s.advance(1);
  }
  s.advance(LEADING_GAP_MS);
  const times = s.posts.map((p) => p.at);
  for (let i = 1; i < times.length; i++)
    assert.ok(
      times[i]! - times[i - 1]! >= LEADING_GAP_MS,
      `posts ${i - 1} and ${i} ${times[i]! - times[i - 1]!} ms apart`,
    );
  assert.ok(s.posts.length >= 11 && s.posts.length <= 14, `${s.posts.length} posts for 100 ms`);
  assert.equal(s.text().join(''), sent.join(''), 'text lost or reordered');
  const reasoning = s.posts.map((p) => p.batch.get('a1')?.reasoning ?? '').join('');
  assert.equal(reasoning, Array.from({ length: 10 }, (_, i) => `r${i * 10}`).join(''));
});

void test('a lone chunk after a quiet moment is posted at once again, not held for the gap', () => {
  const s = setup();
  s.b.add('r1', 'a1', { content: 'a' });
  s.tick();
  s.advance(50);
  s.b.add('r1', 'a1', { content: 'b' });
  s.tick();
  assert.deepEqual(s.text(), ['a', 'b']);
  assert.equal(s.posts[1]?.at, 50);
});

void test('flush (the end, a stop or an error is about to be sent) posts what waits, at once, and cancels the timer', () => {
  const s = setup();
  s.b.add('r1', 'a1', { content: 'a' });
  s.tick();
  s.advance(1);
  s.b.add('r1', 'a1', { content: 'b' });
  s.b.add('r2', 'a2', { content: 'x' });
  assert.equal(s.pendingTimers(), 1);
  s.b.flush();
  assert.deepEqual(s.text(), ['a', 'b|x'], 'both answers flushed, in arrival order');
  assert.equal(s.pendingTimers(), 0);
  s.advance(100);
  assert.equal(s.posts.length, 2, 'a flushed batch was posted again');
  s.b.flush();
  assert.equal(s.posts.length, 2, 'an empty flush posts nothing');
});

void test('dispose drops the timer; nothing is posted afterwards', () => {
  const s = setup();
  s.b.add('r1', 'a1', { content: 'a' });
  s.b.dispose();
  s.advance(100);
  assert.equal(s.posts.length, 0);
});

/** Posts whose delivery settles only when the test says (a busy page). */
function slowPage() {
  const c = fakeClock();
  const posts: { at: number; content: string; deliver: () => void }[] = [];
  const b = new DeltaBatcher(
    (batch) =>
      new Promise<void>((resolve) => {
        posts.push({
          at: c.clock.now(),
          content: [...batch.values()].map((d) => d.content).join(''),
          deliver: resolve,
        });
      }),
    c.clock,
  );
  return { ...c, b, posts };
}
const settle = () => new Promise((r) => setImmediate(r));

void test(`no more than ${MAX_IN_FLIGHT} posts wait for delivery: what arrives meanwhile goes whole in the next post once one is delivered`, async () => {
  const s = slowPage();
  let sent = '';
  // 1,000 chunks/s for 60 ms while the page delivers nothing.
  for (let i = 0; i < 60; i++) {
    sent += `t${i} `;
    s.b.add('r1', 'a1', { content: `t${i} ` });
    s.advance(1);
  }
  assert.equal(s.posts.length, MAX_IN_FLIGHT, 'posts beyond the limit waited');
  s.posts[0]!.deliver();
  await settle();
  s.advance(0);
  assert.equal(s.posts.length, MAX_IN_FLIGHT + 1, 'a delivery lets the next post go at once');
  assert.equal(s.posts.map((p) => p.content).join(''), sent, 'in order, nothing lost, nothing twice');
  for (const p of s.posts) p.deliver();
  await settle();
  // Free again: the next delta goes on the next turn.
  s.advance(LEADING_GAP_MS);
  s.b.add('r1', 'a1', { content: 'end' });
  s.tick();
  assert.equal(s.posts.at(-1)?.content, 'end');
});

void test(`a delivery that never settles holds the text at most ${MAX_HOLD_MS} ms; flush posts at once whatever is in flight`, async () => {
  const s = slowPage();
  for (let i = 0; i < MAX_IN_FLIGHT; i++) {
    s.b.add('r1', 'a1', { content: `p${i}` });
    s.advance(LEADING_GAP_MS);
  }
  assert.equal(s.posts.length, MAX_IN_FLIGHT);
  s.b.add('r1', 'a1', { content: 'late' });
  s.advance(LEADING_GAP_MS);
  assert.equal(s.posts.length, MAX_IN_FLIGHT, 'held behind undelivered posts');
  s.advance(MAX_HOLD_MS);
  assert.equal(s.posts.at(-1)?.content, 'late', 'sent anyway after the hold');
  s.b.add('r1', 'a1', { content: 'last' });
  s.b.flush();
  assert.equal(s.posts.at(-1)?.content, 'last', 'flush (another message follows) never waits');
  await settle();
});
