import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MediaJobSource } from '../../../../../src/contracts/featureTools';
import { FollowedTasks, type FollowedEntry, type FollowPort } from '../../../../../src/chat/panel/core/followedTasks';
import { ChatHub } from '../../../../../src/chat/panel/core/hub';
import type { GalleryTask } from '../../../../../src/shared/protocol/gallery';
import type { HostMessage, VideoCardAction } from '../../../../../src/shared/protocol';

/** The host side of a video tool's card: which task each card follows, and what goes to the pages. */

function galleryTask(key: string, over: Partial<GalleryTask> = {}): GalleryTask {
  return {
    key,
    prompt: 'p',
    model: 'm',
    images: [],
    state: 'polling',
    stateLabel: 'queued',
    createdAt: 1,
    running: true,
    canResume: false,
    ...over,
  };
}

/** A feature with tasks whose state the test sets; `describe` answers after `delay(key)` ms. */
function source(delay: (key: string) => number = () => 0) {
  const state = new Map<string, GalleryTask>();
  const listeners = new Map<string, Set<() => void>>();
  const acts: [string, VideoCardAction][] = [];
  const src: MediaJobSource = {
    kind: 'video',
    watch: (key, l) => {
      const set = listeners.get(key) ?? new Set();
      set.add(l);
      listeners.set(key, set);
      return { dispose: () => set.delete(l) };
    },
    describe: async (key, asUri) => {
      const t = state.get(key);
      const snap = t && { ...t, ...(t.file ? { src: asUri(`/ws/${t.file}`) } : {}) };
      await new Promise((r) => setTimeout(r, delay(key)));
      return snap;
    },
    resourceRoots: () => ['/ws/videos', '/storage/video-posters'],
    act: (key, action) => {
      acts.push([key, action]);
      return Promise.resolve();
    },
  };
  const set = (t: GalleryTask) => {
    state.set(t.key, t);
    for (const l of listeners.get(t.key) ?? []) l();
  };
  return { src, set, acts, listeners };
}

function port(page = true, stored: FollowedEntry[] = []) {
  const sent: HostMessage[] = [];
  let rootsChanged = 0;
  const p: FollowPort & { page: boolean; shown: string; stored: FollowedEntry[] } = {
    page,
    shown: 'conv1',
    stored,
    asWebviewUri: (f) => (p.page ? `https://res${f}` : undefined),
    rootsChanged: () => void rootsChanged++,
    broadcast: (m) => void sent.push(m),
    conversationId: () => p.shown,
    load: () => p.stored,
    save: (e) => void (p.stored = e),
    warn: () => undefined,
  };
  return { p, sent, rootsChanged: () => rootsChanged };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

void test('a followed task goes to the pages on every change as tools/mediaJob, its file as a webview URI, and stays in the state for a reloaded page', async () => {
  const s = source();
  const { p, sent, rootsChanged } = port();
  const f = new FollowedTasks(p);
  s.set(galleryTask('k1'));
  f.follow('conv1', 'call_1', 'k1', s.src);
  await settle();
  s.set(galleryTask('k1', { stateLabel: 'in_progress 50%', progress: 50 }));
  await settle();
  s.set(galleryTask('k1', { state: 'saved', stateLabel: 'saved', running: false, file: 'videos/a.mp4' }));
  await settle();
  assert.deepEqual(
    sent.map((m) => (m.type === 'tools/mediaJob' ? [m.callId, m.task.stateLabel, m.task.src] : m.type)),
    [
      ['call_1', 'queued', undefined],
      ['call_1', 'in_progress 50%', undefined],
      ['call_1', 'saved', 'https://res/ws/videos/a.mp4'],
    ],
  );
  assert.ok(rootsChanged() >= 3, 'the output folders join the roots before each link goes out');
  assert.deepEqual(f.roots(), ['/ws/videos', '/storage/video-posters']);
  assert.deepEqual(f.messages(), [sent[2]]);
  f.dispose();
  assert.equal(s.listeners.get('k1')?.size, 0, 'dispose stops watching');
});

void test('a slow description never overwrites a newer one of the same card', async () => {
  let slow = true;
  const s = source(() => (slow ? 80 : 0));
  const { p, sent } = port();
  const f = new FollowedTasks(p);
  s.set(galleryTask('k1', { stateLabel: 'old' }));
  f.follow('conv1', 'call_1', 'k1', s.src);
  slow = false;
  s.set(galleryTask('k1', { stateLabel: 'new' }));
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(
    sent.map((m) => m.type === 'tools/mediaJob' && m.task.stateLabel),
    ['new'],
  );
  assert.equal(f.messages().length, 1);
  f.dispose();
});

void test('without an open page a saved file cannot be linked: nothing is sent until a page attaches and asks again', async () => {
  const s = source();
  const { p, sent } = port(false);
  const f = new FollowedTasks(p);
  s.set(galleryTask('k1', { state: 'saved', file: 'videos/a.mp4', running: false }));
  f.follow('conv1', 'call_1', 'k1', s.src);
  await settle();
  assert.equal(sent.length, 0);
  assert.deepEqual(f.messages(), []);
  p.page = true;
  await f.refreshAll();
  assert.equal(sent.length, 1);
  assert.equal(sent[0]?.type === 'tools/mediaJob' && sent[0].task.src, 'https://res/ws/videos/a.mp4');
  f.dispose();
});

void test("a card's buttons act on the task its call started; an unknown call does nothing; following again replaces the task", async () => {
  const s = source();
  const f = new FollowedTasks(port().p);
  s.set(galleryTask('k1'));
  s.set(galleryTask('k2'));
  f.follow('conv1', 'call_1', 'k1', s.src);
  await f.act('call_1', 'open');
  await f.act('call_9', 'reveal');
  f.follow('conv1', 'call_1', 'k2', s.src);
  await f.act('call_1', 'reveal');
  assert.deepEqual(s.acts, [
    ['k1', 'open'],
    ['k2', 'reveal'],
  ]);
  assert.equal(s.listeners.get('k1')?.size, 0, 'the replaced task is no longer watched');
  f.dispose();
});

void test('a page that becomes ready gets the latest task state once, not an older queued copy after it', () => {
  const hub = new ChatHub();
  const posted: HostMessage[] = [];
  const surface = hub.add(
    { postMessage: (m: unknown) => (posted.push(m as HostMessage), Promise.resolve(true)) },
    () => true,
  );
  const msg = (label: string): HostMessage => ({
    type: 'tools/mediaJob',
    callId: 'c',
    task: galleryTask('k1', { stateLabel: label }),
  });
  hub.broadcast(msg('queued'));
  hub.ready(surface, [msg('saved')]);
  assert.deepEqual(
    posted.map((m) => m.type === 'tools/mediaJob' && m.task.stateLabel),
    ['saved'],
  );
  hub.dispose();
});

void test('call ids repeat across conversations: a card gets task states only in its own conversation, again when that one is shown, and after a restart from storage', async () => {
  const s = source();
  const { p, sent } = port();
  const f = new FollowedTasks(p);
  s.set(galleryTask('k1', { stateLabel: 'in conv1' }));
  f.follow('conv1', 'call_0', 'k1', s.src);
  await settle();
  assert.deepEqual(p.stored, [{ kind: 'video', conversationId: 'conv1', callId: 'call_0', key: 'k1' }]);
  p.shown = 'conv2';
  f.conversationShown();
  s.set(galleryTask('k1', { stateLabel: 'saved while conv2 is shown' }));
  await settle();
  assert.deepEqual(f.messages(), [], "conv2's call_0 is another card");
  await f.act('call_0', 'open');
  assert.deepEqual(s.acts, [], "conv2's call_0 opens nothing of conv1");
  sent.length = 0;
  p.shown = 'conv1';
  f.conversationShown();
  assert.deepEqual(
    sent.map((m) => m.type === 'tools/mediaJob' && [m.callId, m.task.stateLabel]),
    [['call_0', 'saved while conv2 is shown']],
  );
  f.dispose();

  // A new window: the stored follow comes back when the video feature offers its tasks.
  const again = port(true, p.stored);
  const g = new FollowedTasks(again.p);
  g.offer(s.src);
  await settle();
  assert.deepEqual(
    again.sent.map((m) => m.type === 'tools/mediaJob' && [m.callId, m.task.stateLabel]),
    [['call_0', 'saved while conv2 is shown']],
  );
  g.dispose();
});
