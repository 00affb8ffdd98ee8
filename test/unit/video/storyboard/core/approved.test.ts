import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  freezeUnit,
  imageHash,
  parseApprovedRun,
  unitChanges,
  UNREADABLE,
} from '../../../../../src/video/storyboard/core/approved';
import { BoardRun, type UnitEnd } from '../../../../../src/video/storyboard/core/run';
import { allUnits, dependencyOf, shotRequest, unitKey } from '../../../../../src/video/storyboard/core/plan';
import type { Board } from '../../../../../src/video/storyboard/core/board';

const fallback = { model: 'vendor-image-video', seconds: 4, resolution: '720p', aspectRatio: '16:9' };
const board = (model2: string): Board => ({
  title: 't',
  shots: [
    { id: 'a', prompt: 'one', seconds: 1 },
    { id: 'b', prompt: 'two', seconds: 2, model: model2, continueFrom: 'previous' },
  ],
});
const freeze = (b: Board, shotId: string, images: (string | undefined)[] = []) => {
  const shot = b.shots.find((s) => s.id === shotId)!;
  const { image_urls: _p, ...req } = shotRequest(b, shot, fallback);
  return freezeUnit({ shotId, take: 1 }, req, images, dependencyOf(b, shotId));
};

void test('a unit frozen at the approval and sent unchanged has no changes', () => {
  const b = board('vendor-image-video');
  assert.deepEqual(unitChanges(freeze(b, 'b'), freeze(b, 'b')), []);
  assert.equal(freeze(b, 'b').after, 'a#1');
});

void test('each changed field is named: model, seconds, prompt, the continued shot', () => {
  const was = freeze(board('vendor-image-video'), 'b');
  assert.deepEqual(unitChanges(was, freeze(board('vendor-video-1.5'), 'b')), [
    'model vendor-image-video -> vendor-video-1.5',
  ]);
  const edited = board('vendor-image-video');
  edited.shots[1] = { ...edited.shots[1]!, seconds: 5, prompt: 'other', continueFrom: undefined };
  assert.deepEqual(unitChanges(was, freeze(edited, 'b')), [
    'seconds 2 -> 5',
    'the prompt changed',
    'the shot it continues from changed',
  ]);
  assert.deepEqual(unitChanges(undefined, was), ['it was not part of the approved run']);
});

void test('images are compared by the hash of what is sent: the same name with other bytes is a change', () => {
  const b = board('vendor-image-video');
  const was = freeze(b, 'a', ['data:image/png;base64,AAAA']);
  assert.equal(was.images[0], imageHash('data:image/png;base64,AAAA'));
  assert.deepEqual(unitChanges(was, freeze(b, 'a', ['data:image/png;base64,AAAA'])), []);
  assert.deepEqual(unitChanges(was, freeze(b, 'a', ['data:image/png;base64,BBBB'])), ['the reference images changed']);
  // Unreadable at the approval: whatever is read later was not approved.
  const unreadable = freeze(b, 'a', [undefined]);
  assert.deepEqual(unreadable.images, [UNREADABLE]);
  assert.deepEqual(unitChanges(unreadable, freeze(b, 'a', ['data:image/png;base64,AAAA'])), [
    'the reference images changed',
  ]);
});

void test('a kept run is read back whole; bare units of an older version and junk are dropped', () => {
  const b = board('vendor-image-video');
  const kept = JSON.parse(JSON.stringify([freeze(b, 'a'), freeze(b, 'b')])) as unknown;
  assert.deepEqual(parseApprovedRun(kept), [freeze(b, 'a'), freeze(b, 'b')]);
  assert.deepEqual(parseApprovedRun([{ shotId: 'a', take: 1 }, { ...freeze(b, 'a'), images: ['x'] }, null]), []);
  assert.deepEqual(parseApprovedRun({ a: 1 }), []);
});

void test("two chained shots approved, shot 2's model changed after shot 1 started: shot 2 is compared and not sent on the old approval", async () => {
  let now = board('vendor-image-video');
  const approved = new Map(allUnits(now).map((u) => [unitKey(u), freeze(now, u.shotId)]));
  const sent: string[] = [];
  const refused: string[] = [];
  const ends = new Map<string, (e: UnitEnd) => void>();
  const run = new BoardRun(
    now,
    allUnits(now),
    new Map(),
    {
      // What the VS Code side does at each start: the request from the board as it is now, compared.
      start: async (u) => {
        const changes = unitChanges(approved.get(unitKey(u)), freeze(now, u.shotId));
        if (changes.length) {
          refused.push(`${unitKey(u)}: ${changes.join('; ')}`);
          throw new Error('not approved');
        }
        sent.push(unitKey(u));
        return { done: new Promise<UnitEnd>((r) => ends.set(unitKey(u), r)) };
      },
      images: async () => [],
      lastFrame: async () => 'data:image/png;base64,LAST',
      limit: () => 2,
      onUpdate: () => undefined,
    },
    () => undefined,
  );
  run.step();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent, ['a#1']);
  now = board('vendor-video-1.5');
  run.update(now);
  ends.get('a#1')!({ ok: true });
  await run.done;
  assert.deepEqual(sent, ['a#1'], 'shot 2 was not sent');
  assert.deepEqual(refused, ['b#1: model vendor-image-video -> vendor-video-1.5']);
  assert.equal(run.status({ shotId: 'b', take: 1 }).kind, 'failed');
});
