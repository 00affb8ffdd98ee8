import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  emptyState,
  outputsDirFor,
  parseState,
  printState,
  statePathFor,
  takeFileName,
  takeOf,
  takePath,
  withChosen,
  withTake,
} from '../../../../../src/video/storyboard/core/state';

void test('the state file and the outputs folder sit beside the board', () => {
  assert.equal(statePathFor('/ws/demo/login.storyboard.json'), '/ws/demo/login.storyboard.state.json');
  assert.equal(outputsDirFor('/ws/demo/login.storyboard.json'), '/ws/demo/login.storyboard');
  assert.equal(
    takePath('/ws/login.storyboard.json', takeFileName('s1', 2)),
    path.join('/ws/login.storyboard', 's1-take2.mp4'),
  );
});

void test('takes are recorded per shot in order and the chosen file follows the saved take', () => {
  let s = withTake(emptyState(), 'a', { take: 2, state: 'running', taskKey: 'k2' });
  s = withTake(s, 'a', { take: 1, state: 'saved', taskKey: 'k1', videoId: 'video_1', file: 'a-take1.mp4' });
  s = withTake(s, 'a', { take: 2, state: 'failed', taskKey: 'k2', error: 'moderation' });
  assert.deepEqual(
    s.shots.a!.takes.map((t) => [t.take, t.state]),
    [
      [1, 'saved'],
      [2, 'failed'],
    ],
  );
  assert.equal(takeOf(s, 'a', 2)?.error, 'moderation');
  assert.equal(withChosen(s, [{ id: 'a', take: 1 }]).shots.a!.chosen, 'a-take1.mp4');
  assert.equal(withChosen(s, [{ id: 'a', take: 2 }]).shots.a!.chosen, undefined, 'a failed take is never chosen');
  assert.deepEqual(parseState(printState(s)), { state: s });
});

void test('a missing or empty state file is an empty state; a broken one is reported, not thrown', () => {
  assert.deepEqual(parseState(undefined), { state: emptyState() });
  assert.deepEqual(parseState('  '), { state: emptyState() });
  const broken = parseState('{"v":1,');
  assert.deepEqual(broken.state, emptyState());
  assert.match(broken.error ?? '', /not valid JSON/);
});

void test('a hostile state file cannot name files outside the outputs folder or odd task ids', () => {
  const hostile = [
    { v: 1, shots: { a: { takes: [{ take: 1, state: 'saved', file: '../../.ssh/id_rsa' }] } } },
    { v: 1, shots: { a: { takes: [{ take: 1, state: 'saved', file: '/etc/passwd' }] } } },
    { v: 1, shots: { a: { takes: [{ take: 1, state: 'running', videoId: 'x/../../y' }] } } },
    { v: 1, shots: { a: { takes: [{ take: 1, state: 'running', taskKey: 'a b' }] } } },
    { v: 1, shots: { '../a': { takes: [] } } },
    { v: 1, shots: { a: { takes: [], chosen: '../x.mp4' } } },
  ];
  for (const h of hostile) {
    const r = parseState(JSON.stringify(h));
    assert.ok(r.error, JSON.stringify(h));
    assert.deepEqual(r.state, emptyState());
  }
  assert.throws(() => takePath('/ws/x.storyboard.json', '../y.mp4'), /not a take file name/);
});
