import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness';
import { BROKEN_URL, openGallery, task, VIDEO_URL } from './galleryHarness';

/*
 * The video gallery's page in headless Chromium (Debian's, which decodes H.264): the list with its
 * filters and search, failure reasons, poster frames captured from the video element, "use this
 * frame" as a PNG, a video that cannot be decoded, and the CSP holding with no request leaving.
 */

const browser = useBrowser();

const pngBytes = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

void test('a card shows the estimate beside the charge, and a failed task that was charged says so on a line of its own', async () => {
  const h = await openGallery(browser());
  await h.send({
    type: 'gallery/state',
    tasks: [
      task({ key: 'ok', prompt: 'a saved boat', cost: "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)" }),
      task({
        key: 'bad',
        prompt: 'a failed comet',
        state: 'failed',
        stateLabel: 'failed',
        cost: "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)",
        costFlag: 'This task failed, yet the gateway charged ¥0.80 for it.',
      }),
    ],
  });
  assert.equal(
    await h.page.locator('li[data-key="ok"] .cost').innerText(),
    "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)",
  );
  assert.equal(await h.page.locator('li[data-key="ok"] [data-flag="failed-charged"]').count(), 0);
  assert.match(
    await h.page.locator('li[data-key="bad"] [data-flag="failed-charged"]').innerText(),
    /failed, yet the gateway charged ¥0\.80/,
  );
  assert.deepEqual(await h.cspViolations(), []);
});

void test('the list shows every task; the filters and the search narrow it; a failed task shows its reason', async () => {
  const h = await openGallery(browser());
  await h.send({
    type: 'gallery/state',
    tasks: [
      task({
        key: 'run',
        prompt: 'a running fox',
        state: 'polling',
        stateLabel: 'in_progress 50%',
        progress: 50,
        running: true,
        videoId: 'video_svc_v1_run',
      }),
      task({
        key: 'ok',
        prompt: 'a saved boat',
        file: 'videos/a-saved-boat.mp4',
        videoId: 'video_svc_v1_ok',
        poster: undefined,
      }),
      task({
        key: 'bad',
        prompt: 'a failed comet',
        state: 'failed',
        stateLabel: 'failed',
        failure: 'failed: the gateway reports the task ended in failure (spec 3); reason: content policy',
        videoId: 'video_svc_v1_bad',
      }),
    ],
  });
  const keys = async () => h.page.locator('li.task').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
  assert.deepEqual(await keys(), ['run', 'ok', 'bad']);
  const progress = await h.page.locator('li[data-key="run"] progress').getAttribute('value');
  assert.equal(progress, '50');
  assert.match(await h.page.locator('li[data-key="bad"] .failure').innerText(), /reason: content policy/);
  assert.match(await h.page.locator('li[data-key="ok"]').innerText(), /vendor-image-video · 4 s · 16:9 · 720p/);
  assert.match(await h.page.locator('li[data-key="ok"]').innerText(), /video_svc_v1_ok/);

  for (const [filter, want] of [
    ['running', ['run']],
    ['saved', ['ok']],
    ['failed', ['bad']],
    ['all', ['run', 'ok', 'bad']],
  ] as const) {
    await h.page.locator(`button[data-filter="${filter}"]`).click();
    assert.deepEqual(await keys(), [...want], `filter ${filter}`);
  }
  await h.page.locator('input.search').fill('COMET');
  assert.deepEqual(await keys(), ['bad']);
  await h.page.locator('input.search').fill('video_svc_v1_ok');
  assert.deepEqual(await keys(), ['ok']);
  assert.deepEqual(await h.cspViolations(), []);
  assert.deepEqual(h.foreignRequests, []);
  await h.page.context().close();
});

void test('a saved video without a cached poster posts one drawn from the video, and plays (currentTime advances)', async () => {
  const h = await openGallery(browser());
  await h.send({ type: 'gallery/state', tasks: [task({ key: 'v1', src: VIDEO_URL, file: 'videos/v1.mp4' })] });
  const poster = (await h.until('gallery/poster')) as { key: string; dataUrl: string };
  assert.equal(poster.key, 'v1');
  const bytes = pngBytes(poster.dataUrl);
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  // The sample is 160x90; a poster is at most 320 wide, so it keeps the size.
  assert.equal(bytes.readUInt32BE(16), 160);
  assert.equal(bytes.readUInt32BE(20), 90);

  await h.page.locator('li[data-key="v1"] button[data-action="play"]').click();
  let current = 0;
  for (let i = 0; i < 100 && current <= 0.2; i++) {
    current = await h.page
      .locator('li[data-key="v1"] video')
      .evaluate((v) => (v as unknown as { currentTime: number }).currentTime);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(current > 0.2, `currentTime stayed at ${current}`);
  assert.deepEqual(h.foreignRequests, []);
  await h.page.context().close();
});

void test('"use this frame" posts the current frame as a full-size PNG with its time; a cached poster is not captured again', async () => {
  const h = await openGallery(browser());
  await h.send({
    type: 'gallery/state',
    tasks: [task({ key: 'v2', src: VIDEO_URL, file: 'videos/v2.mp4', poster: `${VIDEO_URL}?poster` })],
  });
  assert.equal(
    await h.page.locator('li[data-key="v2"] video').getAttribute('preload'),
    'none',
    'a card with a poster does not decode the video before play',
  );
  await h.page.locator('li[data-key="v2"] button[data-action="frame"]').click();
  const frame = (await h.until('gallery/frame')) as { key: string; time: number; dataUrl: string };
  assert.equal(frame.key, 'v2');
  assert.equal(typeof frame.time, 'number');
  const bytes = pngBytes(frame.dataUrl);
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  assert.equal(bytes.readUInt32BE(16), 160);
  assert.ok(!(await h.posted()).some((m) => m.type === 'gallery/poster'), 'no poster is captured when one is cached');
  await h.page.context().close();
});

void test('a video the browser cannot decode says so and offers Open externally instead of a broken player', async () => {
  const h = await openGallery(browser());
  await h.send({ type: 'gallery/state', tasks: [task({ key: 'v3', src: BROKEN_URL, file: 'videos/v3.mp4' })] });
  const note = h.page.locator('li[data-key="v3"] .unplayable');
  await note.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await note.innerText(), /cannot play this video/);
  assert.equal(await h.page.locator('li[data-key="v3"] video').count(), 0, 'the broken player is gone');
  await note.locator('button[data-action="openExternal"]').click();
  const act = (await h.until('gallery/action')) as { key: string; action: string };
  assert.deepEqual(act, { type: 'gallery/action', key: 'v3', action: 'openExternal' });
  await h.page.context().close();
});

void test('card buttons post their actions; the remix form posts the edited parameters', async () => {
  const h = await openGallery(browser());
  await h.send({
    type: 'gallery/state',
    tasks: [
      task({ key: 'v4', src: VIDEO_URL, file: 'videos/v4.mp4', poster: `${VIDEO_URL}?p`, videoId: 'video_svc_v1_v4' }),
    ],
  });
  for (const action of ['rerun', 'copyId', 'open', 'reveal', 'deleteFile', 'remove', 'remix']) {
    await h.page.locator(`li[data-key="v4"] button[data-action="${action}"]`).click();
  }
  const actions = (await h.posted()).filter((m) => m.type === 'gallery/action').map((m) => m.action);
  assert.deepEqual(actions, ['rerun', 'copyId', 'open', 'reveal', 'deleteFile', 'remove', 'remix']);

  await h.send({
    type: 'gallery/form',
    form: {
      model: 'vendor-image-video',
      prompt: 'prompt of v4',
      seconds: 4,
      aspectRatio: '16:9',
      resolution: '720p',
      images: ['videos/frames/v4.png'],
      models: ['vendor-image-video', 'vendor-video-1.5'],
      from: 'v4',
    },
  });
  const form = h.page.locator('form.remix');
  await form.locator('textarea[name="prompt"]').fill('prompt of v4, at night');
  await form.locator('select[name="resolution"]').selectOption('480p');
  await form.locator('input[name="seconds"]').fill('6');
  await form.locator('button[type="submit"]').click();
  const gen = (await h.until('gallery/generate')) as { form: Record<string, unknown> };
  assert.deepEqual(
    {
      prompt: gen.form.prompt,
      resolution: gen.form.resolution,
      seconds: gen.form.seconds,
      images: gen.form.images,
      model: gen.form.model,
    },
    {
      prompt: 'prompt of v4, at night',
      resolution: '480p',
      seconds: 6,
      images: ['videos/frames/v4.png'],
      model: 'vendor-image-video',
    },
  );
  await h.send({
    type: 'gallery/notice',
    text: 'The video request was not sent: it breaks these rules\n- text-to-video (image_urls): …',
    error: true,
  });
  assert.match(await h.page.locator('.notice.error').innerText(), /- text-to-video/);
  assert.equal(await form.count(), 1, 'a refused request keeps the form for a fix');
  await h.send({
    type: 'gallery/notice',
    text: 'Started a new video task: prompt of v4, at night',
    error: false,
    closeForm: true,
  });
  assert.equal(await form.count(), 0, 'a started task closes the form');
  assert.deepEqual(await h.cspViolations(), []);
  await h.page.context().close();
});
