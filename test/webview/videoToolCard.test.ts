import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GalleryTask } from '../../src/shared/protocol/gallery';
import type { Conversation, HostMessage } from '../../src/shared/protocol';
import { task } from './galleryHarness';
import { openHarness, ORIGIN, SAMPLE_VIDEO_URL, snapshot, type Harness, useBrowser } from './harness';

/*
 * The card of a generate_video call keeps showing the task it started: progress while the
 * gateway works, then the saved file with a preview and Open / Reveal / default-player buttons.
 */

const browser = useBrowser();

const CALL = 'call_video_1';
const ARGS = JSON.stringify({ prompt: 'a paper plane over the sea', seconds: 4 });

function conversationWithCall(id = 'c1'): Conversation {
  return {
    id,
    title: 'video',
    createdAt: 1,
    updatedAt: 1,
    model: 'gw-chat',
    params: {},
    messages: [
      { id: 'u1', role: 'user', text: 'make a video', images: [], contexts: [], createdAt: 1 },
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: CALL, type: 'function', function: { name: 'generate_video', arguments: ARGS } }],
        status: 'done',
        requestedModel: 'gw-chat',
        createdAt: 2,
      },
    ],
  };
}

const done: HostMessage = {
  type: 'tools/call',
  update: {
    callId: CALL,
    name: 'generate_video',
    argumentsJson: ARGS,
    state: 'done',
    readOnly: false,
    resultPreview: 'Started video task video_1 (queued).',
  },
};

const videoTask = (over: Partial<GalleryTask>): HostMessage => ({
  type: 'tools/mediaJob',
  callId: CALL,
  task: task({ key: 'k1', videoId: 'video_1', prompt: 'a paper plane over the sea', ...over }),
});

const card = (h: Harness) => h.page.locator(`section.toolcard[data-call-id="${CALL}"]`);

void test('a generate_video card shows the task running with its progress, then saved with the file, a playable preview and open/reveal buttons', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: conversationWithCall() }));
  await h.send(done);
  assert.equal(await card(h).locator('.tc-video').count(), 0, 'no task part before the host names one');

  await h.send(videoTask({ state: 'polling', stateLabel: 'in_progress 40%', progress: 40, running: true }));
  const part = card(h).locator('.tc-video');
  assert.match((await part.textContent()) ?? '', /in_progress 40%/);
  assert.equal(await part.locator('progress').getAttribute('value'), '40');
  assert.equal(await part.locator('video').count(), 0, 'no preview while it runs');
  assert.equal(await part.locator('button').count(), 0, 'nothing to open yet');

  await h.send(videoTask({ state: 'polling', stateLabel: 'in_progress 80%', progress: 80, running: true }));
  assert.equal(await part.locator('progress').getAttribute('value'), '80');

  await h.send(
    videoTask({
      state: 'saved',
      stateLabel: 'saved',
      progress: 100,
      running: false,
      file: 'videos/a-paper-plane-video_1.mp4',
      src: SAMPLE_VIDEO_URL,
      poster: `${ORIGIN}/files/sample.mp4?poster`,
    }),
  );
  assert.match((await part.textContent()) ?? '', /saved · videos\/a-paper-plane-video_1\.mp4/);
  assert.equal(await part.locator('progress').count(), 0, 'the progress bar is gone once saved');
  const video = part.locator('video');
  assert.equal(await video.getAttribute('src'), SAMPLE_VIDEO_URL);
  // The preview really loads under the chat page's CSP (media-src), not just an element.
  for (let i = 0; (await video.evaluate((v) => (v as unknown as { readyState: number }).readyState)) < 1; i++) {
    if (i > 200) assert.fail('the preview never loaded its metadata');
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.deepEqual(await h.cspViolations(), []);

  await h.clearPosted();
  await part.getByRole('button', { name: 'Open', exact: true }).click();
  await part.getByRole('button', { name: 'Reveal in Explorer' }).click();
  await part.getByRole('button', { name: 'Open in Default Player' }).click();
  const actions = (await h.posted()).filter((m) => m.type === 'tools/videoAction');
  assert.deepEqual(actions, [
    { type: 'tools/videoAction', callId: CALL, action: 'open' },
    { type: 'tools/videoAction', callId: CALL, action: 'reveal' },
    { type: 'tools/videoAction', callId: CALL, action: 'openExternal' },
  ]);
  await h.page.context().close();
});

void test('a failed task shows its reason and no preview; another conversation drops the task part', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: conversationWithCall() }));
  await h.send(done);
  await h.send(
    videoTask({
      state: 'failed',
      stateLabel: 'failed',
      running: false,
      failure: 'content policy: the prompt was refused',
    }),
  );
  const part = card(h).locator('.tc-video');
  assert.match((await part.locator('.tc-video-failure').textContent()) ?? '', /content policy/);
  assert.equal(await part.locator('video, button').count(), 0);

  // Call ids repeat across conversations (call_0 everywhere): a task must not follow its id there.
  await h.send(snapshot({ conversation: conversationWithCall('c2') }));
  assert.equal(await card(h).count(), 1);
  assert.equal(await card(h).locator('.tc-video').count(), 0);
  await h.page.context().close();
});
