import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Board } from '../../../../../src/video/storyboard/core/board';
import {
  allUnits,
  dependencyOf,
  keyframeImageProblem,
  pathProblem,
  planStep,
  runSummary,
  shotProblems,
  shotRequest,
  unitKey,
  type Unit,
  type UnitStatus,
} from '../../../../../src/video/storyboard/core/plan';

const fb = { model: 'vendor-image-video', seconds: 4, resolution: '720p', aspectRatio: '16:9' };
const board: Board = {
  title: 't',
  shots: [
    { id: 'a', prompt: 'one' },
    { id: 'b', prompt: 'two', continueFrom: 'previous' },
    { id: 'c', prompt: 'three', continueFrom: 'previous' },
    { id: 'd', prompt: 'independent', takes: 2 },
  ],
};

const statusOf =
  (m: Record<string, UnitStatus['kind']>) =>
  (u: Unit): UnitStatus => {
    const k = m[unitKey(u)] ?? 'pending';
    return k === 'failed' || k === 'blocked'
      ? { kind: k, reason: 'x' }
      : k === 'waiting'
        ? { kind: k, on: u }
        : ({ kind: k } as UnitStatus);
  };
const none = new Map<string, string[]>();

void test('chained shots wait for the one they continue from; independent ones start at once', () => {
  const units = allUnits(board);
  assert.deepEqual(units.map(unitKey), ['a#1', 'b#1', 'c#1', 'd#1', 'd#2']);
  const first = planStep(board, units, statusOf({}), none, 10);
  assert.deepEqual(first.start.map(unitKey), ['a#1', 'd#1', 'd#2']);
  assert.deepEqual(first.blocked, []);
  const second = planStep(board, units, statusOf({ 'a#1': 'saved', 'd#1': 'running', 'd#2': 'running' }), none, 10);
  assert.deepEqual(second.start.map(unitKey), ['b#1']);
  const third = planStep(
    board,
    units,
    statusOf({ 'a#1': 'saved', 'b#1': 'saved', 'd#1': 'saved', 'd#2': 'saved' }),
    none,
    10,
  );
  assert.deepEqual(third.start.map(unitKey), ['c#1']);
});

void test('the concurrency limit counts what is already running', () => {
  const units = allUnits(board);
  assert.deepEqual(planStep(board, units, statusOf({}), none, 2).start.map(unitKey), ['a#1', 'd#1']);
  assert.deepEqual(planStep(board, units, statusOf({ 'a#1': 'running' }), none, 2).start.map(unitKey), ['d#1']);
});

void test('a chain to a failed shot stops that chain only and names the shot it continues from', () => {
  const step = planStep(board, allUnits(board), statusOf({ 'a#1': 'failed' }), none, 10);
  assert.deepEqual(step.start.map(unitKey), ['d#1', 'd#2']);
  assert.deepEqual(
    step.blocked.map((b) => unitKey(b.unit)),
    ['b#1', 'c#1'],
  );
  assert.match(step.blocked[0]!.reason, /shot 1 \("a"\) take 1/);
  assert.match(step.blocked[1]!.reason, /shot 2 \("b"\) take 1/);
});

void test("a shot's own problem blocks it and what chains to it, and the others still run", () => {
  const problems = new Map([['a', ['image "x.png" is missing']]]);
  const step = planStep(board, allUnits(board), statusOf({}), problems, 10);
  assert.deepEqual(step.start.map(unitKey), ['d#1', 'd#2']);
  assert.equal(step.blocked[0]!.reason, 'image "x.png" is missing');
  assert.deepEqual(
    step.blocked.map((b) => unitKey(b.unit)),
    ['a#1', 'b#1', 'c#1'],
  );
});

void test("a chained shot waits for the previous shot's chosen take; without its clip outside the run it says so", () => {
  const b2: Board = {
    title: 't',
    shots: [
      { id: 'a', prompt: 'p', takes: 3, chosenTake: 2 },
      { id: 'b', prompt: 'q', continueFrom: 'previous' },
    ],
  };
  assert.deepEqual(dependencyOf(b2, 'b'), { shotId: 'a', take: 2 });
  assert.equal(dependencyOf(b2, 'a'), undefined);
  const only = [{ shotId: 'b', take: 1 }];
  assert.match(planStep(b2, only, statusOf({}), none, 4).blocked[0]!.reason, /has no clip yet/);
  assert.deepEqual(planStep(b2, only, statusOf({ 'a#2': 'saved' }), none, 4).start.map(unitKey), ['b#1']);
  assert.deepEqual(planStep(b2, only, statusOf({ 'a#2': 'running' }), none, 4), { start: [], blocked: [] });
});

void test('shot problems: the first shot cannot chain, paths cannot lead out, URLs must be HTTPS, the model rules apply', () => {
  const b: Board = {
    title: 't',
    shots: [
      { id: 'a', prompt: 'p', continueFrom: 'previous' },
      {
        id: 'b',
        prompt: 'p',
        images: ['../../.ssh/id_rsa', '/etc/passwd', 'http://evil.example/x.png', 'docs/ok.png'],
      },
      { id: 'c', prompt: 'p', model: 'vendor-video-1.5' },
      { id: 'd', prompt: 'p', seconds: 40 },
      { id: 'e', prompt: 'p', images: ['docs/missing.png'] },
    ],
  };
  assert.match(shotProblems(b, 0, fb).join('|'), /it is the first shot/);
  const pb = shotProblems(b, 1, fb).join('|');
  assert.match(pb, /"\.\.\/\.\.\/\.ssh\/id_rsa" leads out of the workspace/);
  assert.match(pb, /"\/etc\/passwd" is an absolute path/);
  assert.match(pb, /"http:\/\/evil\.example\/x\.png" uses http/);
  assert.doesNotMatch(pb, /docs\/ok\.png/);
  assert.ok(shotProblems(b, 2, fb).length > 0, 'vendor-video-1.5 needs one image');
  assert.ok(shotProblems(b, 3, fb).some((p) => /rule:/.test(p)));
  assert.deepEqual(shotProblems(b, 4, fb, new Map([['docs/missing.png', 'does not exist']])), [
    'image "docs/missing.png" does not exist',
  ]);
  const chained: Board = {
    title: 't',
    shots: [
      { id: 'a', prompt: 'p' },
      { id: 'b', prompt: 'q', model: 'vendor-video-1.5', continueFrom: 'previous' },
    ],
  };
  assert.deepEqual(shotProblems(chained, 1, fb), [], 'the last frame counts as the one image it needs');
  assert.equal(pathProblem('..\\..\\x.png'), 'leads out of the workspace');
});

void test('the approval summary counts shots, clips, seconds and models', () => {
  assert.deepEqual(runSummary(board, allUnits(board), fb), {
    shots: 4,
    clips: 5,
    seconds: 20,
    models: ['vendor-image-video'],
  });
});

const one = (shot: Board['shots'][number], prev?: Board['shots'][number]): string[] => {
  const b: Board = { title: 't', shots: prev ? [prev, shot] : [shot] };
  return shotProblems(b, b.shots.length - 1, fb);
};

void test('a keyframe shot: the keyframe leads the reference images, the last keyframe ends them', () => {
  const shot = {
    id: 'k',
    prompt: 'p',
    model: 'kling-v2-1',
    images: ['logo.png'],
    firstFrame: { prompt: 'a door' },
    lastFrame: { prompt: 'the door open' },
  };
  const req = shotRequest({ title: 't', shots: [shot] }, shot, fb);
  assert.equal(req.image_urls?.length, 3);
  assert.equal(req.image_urls?.[1], 'logo.png');
  assert.deepEqual(one(shot), [], 'Kling takes a first and a last frame');
  const plain = { id: 'p', prompt: 'p' };
  assert.equal(shotRequest({ title: 't', shots: [plain] }, plain, fb).image_urls, undefined);
});

void test('keyframes break the rules a shot and its model set, each named', () => {
  const prev = { id: 'a', prompt: 'before' };
  assert.match(
    one({ id: 'b', prompt: 'p', continueFrom: 'previous', firstFrame: { prompt: 'x' } }, prev).join(),
    /both a keyframe and the previous shot's last frame/,
  );
  assert.match(
    one({ id: 'b', prompt: 'p', lastFrame: { prompt: 'x' } }).join(),
    /vendor-image-video takes no last frame/,
    'a model the catalog does not know gets no last frame',
  );
  assert.match(
    one({ id: 'b', prompt: 'p', model: 'wan2.2-i2v-plus', lastFrame: { prompt: 'x' } }).join(),
    /Wan takes a last frame only with a first frame/,
  );
  assert.deepEqual(
    one({ id: 'b', prompt: 'p', model: 'wan2.2-i2v-plus', lastFrame: { prompt: 'x' }, continueFrom: 'previous' }, prev),
    [],
    "the previous shot's last frame is the first frame",
  );
  assert.deepEqual(one({ id: 'b', prompt: 'p', model: 'kling-v2-1', lastFrame: { prompt: 'x' } }), []);
});

void test('a hostile board cannot point a keyframe outside the workspace or at a private address', () => {
  for (const [ref, why] of [
    ['../../etc/passwd', /leads out of the workspace/],
    ['/home/me/.ssh/id_rsa', /absolute path/],
    ['C:\\Users\\me\\key.png', /absolute path/],
    ['http://example.com/a.png', /not an HTTPS link/],
    ['file:///etc/passwd', /not an HTTPS link/],
    ['https://127.0.0.1/a.png', /your own machine or network \(127\.0\.0\.1\)/],
    ['https://localhost/a.png', /your own machine or network/],
    ['https://10.1.2.3/a.png', /your own machine or network/],
    ['https://[::1]/a.png', /your own machine or network/],
    ['https://169.254.169.254/latest/meta-data', /your own machine or network/],
    ['https://0x7f000001/a.png', /your own machine or network/],
    ['https://user:pw@example.com/a.png', /credentials/],
  ] as const)
    assert.match(keyframeImageProblem(ref) ?? 'accepted', why, ref);
  assert.equal(keyframeImageProblem('images/door-1a2b.png'), undefined);
  assert.equal(keyframeImageProblem('https://cdn.example.com/door.png'), undefined);
  const problems = one({ id: 'b', prompt: 'p', firstFrame: { prompt: 'x', image: 'https://192.168.1.1/x.png' } });
  assert.match(problems.join(), /first keyframe "https:\/\/192\.168\.1\.1\/x\.png" points into your own machine/);
  const onDisk = shotProblems(
    { title: 't', shots: [{ id: 'b', prompt: 'p', firstFrame: { prompt: 'x', image: 'link.png' } }] },
    0,
    fb,
    new Map([['link.png', 'leads out of the workspace (through a symbolic link)']]),
  );
  assert.match(onDisk.join(), /keyframe "link\.png" leads out of the workspace \(through a symbolic link\)/);
});
