import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { BoardView, ShotView, StoryboardHostMessage } from '../../src/shared/protocol/storyboard';
import { axeViolations } from './axe';
import { type PageGlobal, useBrowser } from './harness';
import { openMediaPage, ORIGIN, task } from './galleryHarness';

/*
 * The storyboard editor's page in headless Chromium behind the extension's HTML and CSP: the shot
 * cards in order with problems, status and takes (the gallery's card), the edits and generations it
 * posts, the error view of a board that does not parse, axe, and the last frame of a real clip
 * decoded on request (lastFrame.ts, loaded on first use) with no request leaving the page.
 */

const root = join(__dirname, '..', '..');
const CLIP = readFileSync(join(root, 'test', 'gateway', 'fixtures', 'clip-1s.mp4'));
const CLIP_URL = `${ORIGIN}/files/clip-1s.mp4`;

const browser = useBrowser();

interface BoardPage {
  page: Page;
  foreign: string[];
  send(m: StoryboardHostMessage): Promise<void>;
  posted(): Promise<Array<Record<string, unknown>>>;
  csp(): Promise<string[]>;
}

/** The board page, with the clip its takes play. */
async function openBoard(): Promise<BoardPage> {
  const h = await openMediaPage<StoryboardHostMessage>(browser(), {
    bundle: 'storyboard',
    module: true,
    viewport: { width: 900, height: 1000 },
    files: { [CLIP_URL]: CLIP },
  });
  return { page: h.page, foreign: h.foreignRequests, send: h.send, posted: h.posted, csp: h.cspViolations };
}

const shot = (over: Partial<ShotView> & { id: string }): ShotView => ({
  prompt: `prompt of ${over.id}`,
  settings: 'vendor-image-video · 4 s · 16:9 · 720p',
  continues: false,
  images: [],
  takes: 1,
  chosenTake: 1,
  problems: [],
  status: { kind: 'idle', text: 'not generated' },
  takeCards: [],
  savedTakes: [],
  ...over,
});

const VIEW: BoardView = {
  title: 'Login demo',
  running: false,
  price: 'estimated ¥2.40 in all',
  shots: [
    shot({
      id: 'open',
      status: { kind: 'saved', text: 'saved' },
      takes: 2,
      chosenTake: 1,
      savedTakes: [1, 2],
      takeCards: [
        {
          ...task({ key: 'k1', prompt: 'the login page', src: CLIP_URL, file: 'x.storyboard/open-take1.mp4' }),
          take: 1,
        },
        {
          ...task({ key: 'k2', prompt: 'the login page', src: CLIP_URL, file: 'x.storyboard/open-take2.mp4' }),
          take: 2,
        },
      ],
    }),
    shot({ id: 'type', continues: true, status: { kind: 'waiting', text: 'waiting for shot 1 take 1' } }),
    shot({
      id: 'steal',
      images: ['../../.ssh/id_rsa'],
      problems: ['image "../../.ssh/id_rsa" leads out of the workspace'],
      status: { kind: 'blocked', text: 'cannot run: image "../../.ssh/id_rsa" leads out of the workspace' },
    }),
  ],
};

void test('shots appear in order with their problems, status, chain and takes, and axe finds nothing serious', async () => {
  const b = await openBoard();
  await b.send({ type: 'board/state', view: VIEW });
  assert.deepEqual(await b.page.locator('li.shot').evaluateAll((els) => els.map((e) => e.getAttribute('data-shot'))), [
    'open',
    'type',
    'steal',
  ]);
  assert.equal(await b.page.locator('[data-price]').innerText(), 'estimated ¥2.40 in all');
  assert.match(await b.page.locator('li[data-shot="steal"] [data-problems]').innerText(), /leads out of the workspace/);
  assert.equal(await b.page.locator('li[data-shot="type"] [data-status]').innerText(), 'waiting for shot 1 take 1');
  assert.equal(await b.page.locator('li[data-shot="type"] .badge.chain').count(), 1);
  assert.equal(await b.page.locator('li[data-shot="open"] .take').count(), 2);
  assert.equal(await b.page.locator('li[data-shot="open"] .take.chosen').getAttribute('data-take'), '1');
  assert.equal(await b.page.locator('li[data-shot="open"] video').count(), 2, "the gallery's card plays each take");
  const serious = (await axeViolations(b.page)).filter((v) => v.impact === 'critical' || v.impact === 'serious');
  assert.deepEqual(serious, []);
  assert.deepEqual(await b.csp(), []);
  assert.deepEqual(b.foreign, []);
});

void test('the buttons post the edits and generations the host turns into WorkspaceEdits and runs', async () => {
  const b = await openBoard();
  await b.send({ type: 'board/state', view: VIEW });
  const card = (id: string) => b.page.locator(`li[data-shot="${id}"]`);
  await card('type').locator('[data-action="up"]').click();
  await card('type').locator('[data-action="duplicate"]').click();
  await card('steal').locator('[data-action="delete"]').click();
  await card('open').locator('[data-action="choose"]').nth(1).click();
  await card('type').locator('[data-action="generate"]').click();
  await b.page.locator('[data-action="generateAll"]').click();
  await b.page.locator('[data-action="add"]').click();
  await b.page.getByLabel('Prompt of shot 2').fill('typing slowly');
  await b.page.getByLabel('Prompt of shot 2').blur();
  const posted = (await b.posted()).filter((m) => m.type !== 'webview/ready');
  assert.deepEqual(posted, [
    { type: 'board/edit', edit: { kind: 'move', id: 'type', to: 0 } },
    { type: 'board/edit', edit: { kind: 'duplicate', id: 'type' } },
    { type: 'board/edit', edit: { kind: 'delete', id: 'steal' } },
    { type: 'board/edit', edit: { kind: 'choose', id: 'open', take: 2 } },
    { type: 'board/generate', id: 'type' },
    { type: 'board/generate' },
    { type: 'board/edit', edit: { kind: 'add', after: 'steal' } },
    { type: 'board/edit', edit: { kind: 'update', id: 'type', patch: { prompt: 'typing slowly' } } },
  ]);
  // While the board runs, nothing more can be started from it.
  await b.send({ type: 'board/state', view: { ...VIEW, running: true } });
  assert.equal(await b.page.locator('[data-action="generateAll"]').isDisabled(), true);
  assert.equal(await card('open').locator('[data-action="generate"]').isDisabled(), true);
});

void test('a board that does not parse shows its error as an alert and offers no edits', async () => {
  const b = await openBoard();
  await b.send({
    type: 'board/state',
    view: { title: '', shots: [], running: false, error: 'Line 3, column 26: CommaExpected' },
  });
  assert.match(await b.page.getByRole('alert').innerText(), /Line 3, column 26: CommaExpected[\s\S]*text editor/);
  assert.equal(await b.page.locator('button').count(), 0);
  assert.deepEqual(
    (await axeViolations(b.page)).filter((v) => v.impact === 'critical' || v.impact === 'serious'),
    [],
  );
});

void test("the last frame of a clip sent as bytes comes back as a PNG of the clip's size; bytes that are no video come back as an error", async () => {
  const b = await openBoard();
  await b.send({ type: 'board/state', view: VIEW });
  await b.page.evaluate(
    (bytes) =>
      (globalThis as unknown as PageGlobal).postMessage(
        { type: 'board/clip', requestId: 7, bytes: new Uint8Array(bytes) },
        '*',
      ),
    [...CLIP],
  );
  await b.page.evaluate(
    (bytes) =>
      (globalThis as unknown as PageGlobal).postMessage(
        { type: 'board/clip', requestId: 8, bytes: new Uint8Array(bytes) },
        '*',
      ),
    [1, 2, 3],
  );
  let frames: Array<Record<string, unknown>> = [];
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    frames = (await b.posted()).filter((m) => m.type === 'board/frame');
    if (frames.length === 2) break;
  }
  assert.equal(
    frames.length,
    2,
    JSON.stringify({
      frames: frames.map((f) => ({ ...f, dataUrl: String(f.dataUrl).slice(0, 30) })),
      foreign: b.foreign,
      csp: await b.csp(),
    }),
  );
  const ok = frames.find((f) => f.requestId === 7);
  const bad = frames.find((f) => f.requestId === 8);
  if (ok?.error !== undefined) {
    // This Chromium has no H.264 WebCodecs decoder (the workbench's does: the integration test
    // chains through it); the card must then say which codec it cannot decode, not fail silently.
    assert.match(String(ok.error), /cannot decode its codec \(avc1\./);
  } else {
    assert.match(String(ok?.dataUrl), /^data:image\/png;base64,/);
    const png = Buffer.from(String(ok?.dataUrl).split(',')[1] ?? '', 'base64');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [320, 180]);
  }
  assert.equal(bad?.dataUrl, undefined);
  assert.match(String(bad?.error), /cannot be decoded/);
  assert.deepEqual(b.foreign, [], 'mediabunny loads from the bundle; nothing leaves the page');
  assert.deepEqual(await b.csp(), []);
});

const saved = (id: string, take: number): ShotView =>
  shot({
    id,
    status: { kind: 'saved', text: 'saved' },
    takes: 2,
    chosenTake: take,
    savedTakes: [1, 2],
    takeCards: [{ ...task({ key: `${id}-${take}`, prompt: id, src: CLIP_URL }), take }],
  });
const READY: BoardView = { title: 'Film', running: false, shots: [saved('open', 2), saved('type', 1)] };

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = await probe();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

void test('the export panel lists the chosen takes in order, posts the stitch and shows the host answer; a missing take disables it', async () => {
  const b = await openBoard();
  await b.send({ type: 'board/state', view: VIEW });
  const join = b.page.getByRole('button', { name: 'Join into one MP4' });
  assert.equal(await join.isDisabled(), true, 'shots 2 and 3 have no saved chosen take');
  assert.match(await b.page.locator('.export-panel').innerText(), /Choose a take for each shot/);

  await b.send({ type: 'board/state', view: READY });
  assert.deepEqual(await b.page.locator('.export-takes li').allInnerTexts(), ['Shot 1, take 2', 'Shot 2, take 1']);
  await join.click();
  const stitch = await waitFor(
    async () => (await b.posted()).find((m) => m.type === 'board/stitch'),
    'the stitch message',
  );
  assert.deepEqual(Object.keys(stitch).sort(), ['requestId', 'type'], 'the page names no file');
  await b.send({
    type: 'board/exportReply',
    requestId: stitch.requestId as number,
    reply: { ok: true, file: 'demo.storyboard/film.mp4', durationSeconds: 3 },
  });
  assert.equal(
    await b.page.locator('.export-status').innerText(),
    'Saved demo.storyboard/film.mp4 (3.00 s, not re-encoded).',
  );

  // Parameters that differ: the host says which clip, the panel marks it and offers the re-encode.
  await join.click();
  const again = await waitFor(async () => {
    const all = (await b.posted()).filter((m) => m.type === 'board/stitch');
    return all.length === 2 ? all[1] : undefined;
  }, 'the second stitch');
  await b.send({
    type: 'board/exportReply',
    requestId: again.requestId as number,
    reply: {
      ok: false,
      kind: 'mismatch',
      message: 'Shot 2, take 1 is 640x360, not 320x180',
      index: 1,
      parameter: 'size',
    },
  });
  assert.match(await b.page.locator('.export-status').innerText(), /640x360/);
  assert.equal(
    await b.page.locator('.export-takes li[aria-invalid="true"]').innerText(),
    'Shot 2, take 1 (cannot be included)',
  );
  assert.equal(await b.page.getByRole('button', { name: 'Re-encode here and join' }).count(), 1);
  const serious = (await axeViolations(b.page)).filter((v) => v.impact === 'critical' || v.impact === 'serious');
  assert.deepEqual(serious, []);
  assert.deepEqual(b.foreign, []);
});

void test('the GIF export reads the chosen takes through the host (no fetch), then saves the GIF by kind or says why not', async () => {
  const b = await openBoard();
  await b.send({ type: 'board/state', view: READY });
  await b.page.getByRole('button', { name: 'Export GIF' }).click();
  for (const id of ['open', 'type']) {
    const read = await waitFor(
      async () => (await b.posted()).find((m) => m.type === 'board/readTake' && m.id === id),
      `board/readTake ${id}`,
    );
    await b.page.evaluate(
      ([requestId, bytes]) =>
        (globalThis as unknown as PageGlobal).postMessage(
          { type: 'board/exportReply', requestId, reply: { ok: true, bytes: new Uint8Array(bytes as number[]) } },
          '*',
        ),
      [read.requestId, [...CLIP]] as const,
    );
  }
  const outcome = await waitFor(async () => {
    const save = (await b.posted()).find((m) => m.type === 'board/saveExport');
    if (save) return save;
    const status = await b.page.locator('.export-status.error').count();
    return status ? { error: await b.page.locator('.export-status').innerText() } : undefined;
  }, 'the GIF save or an error');
  if ('error' in outcome) {
    // This Chromium has no H.264 decoder: the panel must then say which take it cannot include.
    assert.match(String(outcome.error), /Shot 1, take 2 cannot be included/);
  } else {
    assert.equal(outcome.kind, 'gif');
    assert.deepEqual(Object.keys(outcome).sort(), ['bytes', 'kind', 'requestId', 'type']);
    await b.send({
      type: 'board/exportReply',
      requestId: outcome.requestId as number,
      reply: { ok: true, file: 'demo.storyboard/film.gif' },
    });
    assert.match(await b.page.locator('.export-status').innerText(), /^Saved demo\.storyboard\/film\.gif: /);
  }
  assert.deepEqual(b.foreign, [], 'the takes came as bytes from the host');
  assert.deepEqual(await b.csp(), []);
});
