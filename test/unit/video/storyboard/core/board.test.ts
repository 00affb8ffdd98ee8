import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyEdit,
  effectiveShot,
  keyframePatch,
  parseBoard,
  printBoard,
  type Board,
} from '../../../../../src/video/storyboard/core/board';

const board: Board = {
  title: 'Login demo',
  defaults: { model: 'vendor-image-video', resolution: '720p', aspectRatio: '16:9' },
  shots: [
    { id: 'a', prompt: 'the login page' },
    { id: 'b', prompt: 'typing the password', continueFrom: 'previous', takes: 2, chosenTake: 2 },
    { id: 'c', prompt: 'the dashboard', seconds: 6 },
  ],
};

void test('a printed board parses back to the same board', () => {
  const r = parseBoard(printBoard(board));
  assert.deepEqual(r, { ok: true, board });
});

void test('a syntax error names its line and column and is marked as syntax', () => {
  const r = parseBoard('{\n  "title": "x",\n  "shots": [\n    { "id": "a" "prompt": "p" }\n  ]\n}');
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.syntax);
  assert.match(!r.ok ? r.error : '', /^Line 4, column 17: /);
});

void test('comments and trailing commas are syntax errors (the file is plain JSON)', () => {
  assert.equal(parseBoard('{"title":"x","shots":[],}').ok, false);
  assert.equal(parseBoard('// c\n{"title":"x","shots":[]}').ok, false);
});

void test('a schema error names the path of the bad field', () => {
  const r = parseBoard(JSON.stringify({ title: 'x', shots: [{ id: 'a', prompt: 'p', takes: 1000 }] }));
  assert.ok(!r.ok && !r.syntax);
  assert.match(!r.ok ? r.error : '', /^shots\.0\.takes: /);
});

void test('a huge takes count, too many shots, a bad id or continueFrom other than "previous" are refused', () => {
  const bad = [
    { title: 'x', shots: [{ id: 'a', prompt: 'p', takes: 5 }] },
    { title: 'x', shots: Array.from({ length: 41 }, (_, i) => ({ id: `s${i}`, prompt: 'p' })) },
    { title: 'x', shots: [{ id: '../a', prompt: 'p' }] },
    { title: 'x', shots: [{ id: 'a', prompt: 'p', continueFrom: 'next' }] },
    { title: 'x', shots: [{ id: 'a', prompt: 'p', images: Array(8).fill('x.png') }] },
  ];
  for (const b of bad) assert.equal(parseBoard(JSON.stringify(b)).ok, false, JSON.stringify(b).slice(0, 80));
});

void test('a duplicated id and a chosen take beyond the takes name the shot', () => {
  const dup = parseBoard(
    JSON.stringify({
      title: 'x',
      shots: [
        { id: 'a', prompt: 'p' },
        { id: 'a', prompt: 'q' },
      ],
    }),
  );
  assert.match(!dup.ok ? dup.error : '', /Shot 2: the id "a" is used twice/);
  const chosen = parseBoard(JSON.stringify({ title: 'x', shots: [{ id: 'a', prompt: 'p', takes: 2, chosenTake: 3 }] }));
  assert.match(!chosen.ok ? chosen.error : '', /Shot 1: chosenTake 3/);
});

void test("a shot's own settings win over the board's defaults, which win over the fallback", () => {
  const fb = { model: 'm', seconds: 4, resolution: '480p', aspectRatio: '1:1' };
  assert.deepEqual(effectiveShot(board, board.shots[2]!, fb), {
    model: 'vendor-image-video',
    seconds: 6,
    resolution: '720p',
    aspectRatio: '16:9',
    takes: 1,
    chosenTake: 1,
  });
  assert.equal(effectiveShot({ title: '', shots: [] }, { id: 'x', prompt: '' }, fb).model, 'm');
});

void test('add, duplicate, move, choose and delete keep ids unique and leave the input untouched', () => {
  const copy = structuredClone(board);
  let b = applyEdit(board, { kind: 'add', after: 'a', shot: { prompt: 'new' } });
  assert.deepEqual(
    b.shots.map((s) => s.id),
    ['a', 'shot-4', 'b', 'c'],
  );
  b = applyEdit(b, { kind: 'duplicate', id: 'b' });
  assert.deepEqual(
    b.shots.map((s) => s.id),
    ['a', 'shot-4', 'b', 'shot-5', 'c'],
  );
  assert.equal(b.shots[3]!.chosenTake, undefined, 'a duplicate has no chosen take yet');
  b = applyEdit(b, { kind: 'move', id: 'c', to: 0 });
  assert.equal(b.shots[0]!.id, 'c');
  b = applyEdit(b, { kind: 'choose', id: 'b', take: 1 });
  assert.equal(b.shots.find((s) => s.id === 'b')!.chosenTake, 1);
  assert.throws(() => applyEdit(b, { kind: 'choose', id: 'b', take: 3 }), /no take 3/);
  b = applyEdit(b, { kind: 'delete', id: 'a' });
  assert.ok(!b.shots.some((s) => s.id === 'a'));
  assert.throws(() => applyEdit(b, { kind: 'delete', id: 'zz' }), /No shot "zz"/);
  assert.throws(() => applyEdit(b, { kind: 'update', id: 'b', patch: { takes: 9 } }));
  assert.deepEqual(board, copy);
});

void test('an old board (no keyframes) parses and prints back unchanged', () => {
  const old = `${JSON.stringify(
    {
      title: 'Login demo',
      defaults: { model: 'vendor-image-video' },
      shots: [
        { id: 'a', prompt: 'the login page', images: ['logo.png'] },
        { id: 'b', prompt: 'typing', continueFrom: 'previous', takes: 2, chosenTake: 2 },
      ],
    },
    null,
    2,
  )}\n`;
  const r = parseBoard(old);
  assert.ok(r.ok);
  assert.equal(printBoard(r.board), old);
  assert.equal(r.board.shots[0]!.firstFrame, undefined);
});

void test('keyframes parse with their prompt, model and image; a bad one is named by its path', () => {
  const r = parseBoard(
    JSON.stringify({
      title: 't',
      shots: [
        {
          id: 'a',
          prompt: 'p',
          firstFrame: { prompt: 'a red door', model: 'gpt-image-1', image: 'images/a-red-door-1a2b3c4d.png' },
          lastFrame: { prompt: 'the door open' },
        },
      ],
    }),
  );
  assert.ok(r.ok);
  assert.deepEqual(r.board.shots[0]!.firstFrame, {
    prompt: 'a red door',
    model: 'gpt-image-1',
    image: 'images/a-red-door-1a2b3c4d.png',
  });
  assert.equal(r.board.shots[0]!.lastFrame?.prompt, 'the door open');
  for (const bad of [{ prompt: '' }, { image: 'x.png' }, { prompt: 'x', image: '' }, 'a door']) {
    const b = parseBoard(JSON.stringify({ title: 't', shots: [{ id: 'a', prompt: 'p', firstFrame: bad }] }));
    assert.ok(!b.ok, JSON.stringify(bad));
    assert.match(b.error, /^shots\.0\.firstFrame/);
  }
});

void test("the editor's keyframe prompt: empty removes it, a new prompt drops the old image, the same keeps it", () => {
  const shot = { id: 'a', prompt: 'p', firstFrame: { prompt: 'door', model: 'm', image: 'images/door.png' } };
  assert.deepEqual(keyframePatch(shot, 'firstFrame', '  '), { firstFrame: undefined });
  assert.deepEqual(keyframePatch(shot, 'firstFrame', 'door'), { firstFrame: shot.firstFrame });
  assert.deepEqual(keyframePatch(shot, 'firstFrame', 'window'), { firstFrame: { model: 'm', prompt: 'window' } });
  assert.deepEqual(keyframePatch(shot, 'lastFrame', 'end'), { lastFrame: { prompt: 'end' } });
  const edited = applyEdit(
    { title: 't', shots: [shot] },
    { kind: 'update', id: 'a', patch: keyframePatch(shot, 'firstFrame', '') },
  );
  assert.equal(printBoard(edited).includes('firstFrame'), false, 'a removed keyframe leaves no key in the file');
});
