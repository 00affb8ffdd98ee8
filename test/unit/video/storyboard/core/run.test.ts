import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Board } from '../../../../../src/video/storyboard/core/board';
import { allUnits, unitKey, type Unit, type UnitStatus } from '../../../../../src/video/storyboard/core/plan';
import { BoardRun, type UnitEnd } from '../../../../../src/video/storyboard/core/run';

const board: Board = {
  title: 't',
  shots: [
    { id: 'a', prompt: 'one', images: ['logo.png'] },
    { id: 'b', prompt: 'two', continueFrom: 'previous' },
    { id: 'c', prompt: 'three', continueFrom: 'previous' },
    { id: 'x', prompt: 'independent' },
  ],
};

/** A run whose starts are recorded and whose tasks end when the test says. */
function harness(o: { limit?: number; fail?: string[]; frameFails?: boolean } = {}) {
  const log: string[] = [];
  const ends = new Map<string, (e: UnitEnd) => void>();
  const statuses = new Map<string, UnitStatus>();
  const run = new BoardRun(
    board,
    allUnits(board),
    new Map(),
    {
      start: async (u, own, frame) => {
        log.push(`start ${unitKey(u)} [${[...own, ...(frame ? [frame] : [])].join(',')}]`);
        return { done: new Promise<UnitEnd>((r) => ends.set(unitKey(u), r)) };
      },
      images: async (id) => (id === 'a' ? ['data:image/png;base64,LOGO'] : []),
      lastFrame: async (u: Unit) => {
        if (o.frameFails) throw new Error('cannot decode');
        return `data:image/png;base64,LAST-${unitKey(u)}`;
      },
      limit: () => o.limit ?? 4,
      onUpdate: (u, s) => statuses.set(unitKey(u), s),
    },
    () => undefined,
  );
  const tick = () => new Promise((r) => setImmediate(r));
  const end = async (k: string, e: UnitEnd = { ok: true }) => {
    await tick();
    ends.get(k)!(e);
    await tick();
    await tick();
  };
  return { run, log, statuses, end, tick };
}

void test('a 3-shot chain runs in order, each chained shot carrying the last frame of the one before', async () => {
  const h = harness();
  h.run.step();
  await h.tick();
  assert.deepEqual(h.log, ['start a#1 [data:image/png;base64,LOGO]', 'start x#1 []']);
  assert.equal(h.statuses.get('b#1')?.kind, 'waiting');
  await h.end('a#1');
  assert.deepEqual(h.log.slice(2), ['start b#1 [data:image/png;base64,LAST-a#1]']);
  await h.end('x#1');
  await h.end('b#1');
  assert.deepEqual(h.log.slice(3), ['start c#1 [data:image/png;base64,LAST-b#1]']);
  let finished = false;
  void h.run.done.then(() => (finished = true));
  await h.tick();
  assert.equal(finished, false);
  await h.end('c#1');
  assert.equal(finished, true);
  assert.equal(h.log.length, 4, 'each unit is started exactly once');
});

void test('a failed shot blocks only its chain; the run still ends', async () => {
  const h = harness();
  h.run.step();
  await h.end('a#1', { ok: false, error: 'moderation' });
  await h.end('x#1');
  await h.run.done;
  assert.deepEqual(h.statuses.get('a#1'), { kind: 'failed', reason: 'moderation' });
  assert.equal(h.statuses.get('b#1')?.kind, 'blocked');
  assert.equal(h.statuses.get('c#1')?.kind, 'blocked');
  assert.equal(h.statuses.get('x#1')?.kind, 'saved');
  assert.equal(h.log.length, 2);
});

void test('a last frame that cannot be decoded fails the chained shot with the reason and sends nothing for it', async () => {
  const h = harness({ frameFails: true });
  h.run.step();
  await h.end('a#1');
  await h.end('x#1');
  await h.run.done;
  assert.match(
    (h.statuses.get('b#1') as { reason: string }).reason,
    /last frame of shot "a" take 1 could not be read: cannot decode/,
  );
  assert.equal(h.statuses.get('c#1')?.kind, 'blocked');
  assert.equal(h.log.length, 2);
});

void test('the limit holds: with 1 at a time the independent shot waits its turn', async () => {
  const h = harness({ limit: 1 });
  h.run.step();
  await h.tick();
  assert.deepEqual(h.log, ['start a#1 [data:image/png;base64,LOGO]']);
  await h.end('a#1');
  assert.equal(h.log.length, 2);
  assert.match(h.log[1]!, /^start b#1/);
});

void test('an attached unit (resumed after a reload) is followed and never started again', async () => {
  const h = harness();
  let endA!: (e: UnitEnd) => void;
  h.run.attach({ shotId: 'a', take: 1 }, new Promise((r) => (endA = r)));
  h.run.step();
  await h.tick();
  assert.deepEqual(h.log, ['start x#1 []']);
  endA({ ok: true });
  await h.tick();
  await h.tick();
  assert.deepEqual(h.log.slice(1), ['start b#1 [data:image/png;base64,LAST-a#1]']);
});

void test('a run resumed after a reload never sends again a unit that has its clip or was started elsewhere', async () => {
  const log: string[] = [];
  const known = new Map<string, UnitStatus>([
    ['a#1', { kind: 'saved' }],
    ['x#1', { kind: 'blocked', reason: 'recorded as started but not by this window' }],
  ]);
  const run = new BoardRun(
    board,
    allUnits(board),
    new Map(),
    {
      start: async (u, own, frame) => {
        log.push(`start ${unitKey(u)} [${[...own, ...(frame ? [frame] : [])].join(',')}]`);
        return { done: new Promise<UnitEnd>(() => undefined) };
      },
      images: async () => [],
      lastFrame: async (u: Unit) => `LAST-${unitKey(u)}`,
      limit: () => 4,
      onUpdate: () => undefined,
    },
    (u) => known.get(unitKey(u)),
  );
  run.step();
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  // Only b, the first unit without a clip, starts, from a's recorded clip; a and x are not resent.
  assert.deepEqual(log, ['start b#1 [LAST-a#1]']);
  assert.equal(run.status({ shotId: 'a', take: 1 }).kind, 'saved');
  assert.equal(run.status({ shotId: 'x', take: 1 }).kind, 'blocked');
});

void test('a shot with keyframes gets them before it starts; a keyframe that cannot be had fails only that shot', async () => {
  const kb: Board = {
    title: 'k',
    shots: [
      { id: 'k', prompt: 'opens on a keyframe', firstFrame: { prompt: 'a red door' } },
      { id: 'bad', prompt: 'its keyframe fails', firstFrame: { prompt: 'x' } },
      { id: 'plain', prompt: 'no keyframe' },
    ],
  };
  const started: string[] = [];
  const failed = new Map<string, string>();
  const asked: string[] = [];
  const run = new BoardRun(
    kb,
    allUnits(kb),
    new Map(),
    {
      start: async (u, own, _frame, keys) => {
        started.push(`${u.shotId} first=${keys?.first ?? '-'} last=${keys?.last ?? '-'} own=${own.length}`);
        return { done: Promise.resolve({ ok: true }) };
      },
      images: async () => [],
      keyframes: async (id) => {
        asked.push(id);
        if (id === 'bad') throw new Error('the first keyframe could not be generated: refused');
        return id === 'k' ? { first: 'data:image/png;base64,KEY' } : {};
      },
      lastFrame: async () => 'unused',
      limit: () => 4,
      onUpdate: (u, s) => {
        if (s.kind === 'failed') failed.set(u.shotId, s.reason);
      },
    },
    () => undefined,
  );
  run.step();
  await run.done;
  assert.deepEqual(asked.sort(), ['bad', 'k', 'plain']);
  assert.deepEqual(started.sort(), ['k first=data:image/png;base64,KEY last=- own=0', 'plain first=- last=- own=0']);
  assert.match(failed.get('bad') ?? '', /could not be generated: refused/);
});
