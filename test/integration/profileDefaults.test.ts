// Gateway profiles (issue 22), continued: each profile's default chat and video models, the chat
// header's switch (it runs the same command as the status bar), and removing a profile that still
// has a running video task. Through the real host and both local gateways (gw and gw.second).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Services } from '../../src/platform/services';
import { removeProfileCommand } from '../../src/profiles/manage/vscode/commands';
import type { HostMessage } from '../../src/shared/protocol';
import type { VideoDebugState } from '../../src/video/vscode/testCommands';
import { ChatController } from '../../src/chat/vscode/controller';
import { control, control2, extension, gateway, gateway2, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

interface Recorded {
  method: string;
  route: string;
  path: string;
  auth: string;
  headers: Record<string, string>;
  body?: { model?: string };
}

const requests = async (ctl: typeof control): Promise<Recorded[]> => (await ctl('requests')) as Recorded[];
const chats = async (ctl: typeof control) =>
  (await requests(ctl)).filter((r) => r.route === '/v1/chat/completions').map((r) => r.body?.model);
const creations = async (ctl: typeof control) =>
  (await requests(ctl)).filter((r) => r.method === 'POST' && r.route === '/v1/videos/generations');
const polls = async (ctl: typeof control) => (await requests(ctl)).filter((r) => r.route === '/v1/videos/:id');
const videoState = () => vscode.commands.executeCommand<VideoDebugState>('gatewayStudio.video.debugState');

/** The relay: the second gateway, with default chat and video models of its own. */
const relay = () => ({
  id: 'relay',
  name: 'Relay',
  baseUrl: gateway2.url,
  videoBaseUrl: gateway2.videoUrl,
  chatModel: gateway2.model,
  videoModel: 'vendor-video-1.5',
  headers: { [gateway2.header.name]: gateway2.header.value },
});

const lastOf = <T extends HostMessage['type']>(page: FakeWebview, type: T) =>
  page.posted.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type).at(-1);

describe('gateway profiles: default models, the chat header, removal with running tasks', () => {
  let s: Services;
  before(async () => {
    s = (await extension()).exports as Services;
  });
  beforeEach(async () => {
    await control('reset');
    await control2('reset');
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('chatModel', 'gw-chat');
    await setSetting('videoModel', 'vendor-image-video');
    await setSetting('video.pollIntervalSeconds', 0.3);
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [relay()]);
    await s.profiles.setKey('relay', gateway2.validKey);
  });
  afterEach(async () => {
    await s.profiles.setActive('default');
    await s.profiles.clearKey('relay');
    for (const k of ['profiles', 'chatModel', 'videoModel', 'videoBaseUrl', 'video.pollIntervalSeconds'])
      await setSetting(k, undefined);
    await (await keyStore()).clear();
  });

  it("switched from the chat header: the host runs the switch command, the page gets the host's list, and each profile's default chat model is used", async () => {
    const controller = new ChatController(s);
    const page = new FakeWebview();
    const attached = controller.attach(page as unknown as vscode.Webview);
    try {
      page.fromPage({ type: 'webview/ready' });
      page.fromPage({ type: 'chat/new' });
      const first = await waitFor('the profile list', () => lastOf(page, 'profiles/list'));
      assert.deepEqual(first.profiles, [
        { id: 'default', name: 'Default' },
        { id: 'relay', name: 'Relay' },
      ]);
      assert.equal(first.active, 'default');
      assert.ok(!JSON.stringify(first).includes(gateway2.url), "a profile's address reached the page");
      page.fromPage({ type: 'chat/send', requestId: 'd1', text: 'on default', images: [], contexts: [] });
      assert.equal((await waitFor('d1', () => page.end('d1'))).type, 'chat/done');
      // The user had picked another model of Default's gateway for this conversation.
      page.fromPage({ type: 'chat/setModel', model: 'gw-vision' });
      page.fromPage({ type: 'chat/send', requestId: 'd2', text: 'vision', images: [], contexts: [] });
      assert.equal((await waitFor('d2', () => page.end('d2'))).type, 'chat/done');

      page.fromPage({ type: 'profiles/switch', id: 'relay' });
      await waitFor('the relay active', () => (s.profiles.activeId() === 'relay' ? true : undefined));
      await waitFor('the page told', () => (lastOf(page, 'profiles/list')?.active === 'relay' ? true : undefined));
      const shown = await waitFor('the conversation on the relay defaults', () => {
        const c = lastOf(page, 'chat/conversation');
        return c?.defaultModel === gateway2.model ? c : undefined;
      });
      assert.equal(shown.conversation.model, '', "the relay's default replaces the other gateway's model");
      page.fromPage({ type: 'chat/send', requestId: 'r1', text: 'on relay', images: [], contexts: [] });
      assert.equal((await waitFor('r1', () => page.end('r1'))).type, 'chat/done');
      // A new conversation on the relay starts with its model too.
      page.fromPage({ type: 'chat/new' });
      page.fromPage({ type: 'chat/send', requestId: 'r2', text: 'new on relay', images: [], contexts: [] });
      assert.equal((await waitFor('r2', () => page.end('r2'))).type, 'chat/done');
      // Back to Default from the command (the status bar's way): the page follows, Default's model is back.
      await vscode.commands.executeCommand('gatewayStudio.switchProfile', 'default');
      await waitFor('the page told', () => (lastOf(page, 'profiles/list')?.active === 'default' ? true : undefined));
      page.fromPage({ type: 'chat/send', requestId: 'd3', text: 'default again', images: [], contexts: [] });
      assert.equal((await waitFor('d3', () => page.end('d3'))).type, 'chat/done');

      assert.deepEqual(await chats(control), ['gw-chat', 'gw-vision', 'gw-chat']);
      assert.deepEqual(await chats(control2), [gateway2.model, gateway2.model]);
      for (const r of (await requests(control2)).filter((x) => x.route === '/v1/chat/completions')) {
        assert.equal(r.auth, 'valid');
        assert.equal(r.headers[gateway2.header.name], gateway2.header.value);
      }
      // An id the host does not know switches nothing, and the page is told the truth again.
      const lists = page.posted.filter((m) => m.type === 'profiles/list').length;
      page.fromPage({ type: 'profiles/switch', id: 'evil' });
      await waitFor('an answer', () =>
        page.posted.filter((m) => m.type === 'profiles/list').length > lists ? true : undefined,
      );
      assert.equal(s.profiles.activeId(), 'default');
      assert.equal(lastOf(page, 'profiles/list')?.active, 'default');
    } finally {
      attached.dispose();
      controller.dispose();
    }
  });

  it("the video command and the video tool default to the active profile's video model", async () => {
    // One reference image: the relay's vendor-video-1.5 takes exactly one (Default's model 0 to 7).
    const image = 'https://images.example/ref.png';
    const start = (prompt: string) =>
      vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
        prompt,
        seconds: 4,
        image_urls: [image],
      });
    assert.ok(await start('on default'));
    await s.profiles.setActive('relay');
    assert.ok(await start('on relay'));
    // Gateway Studio's own question before an agent's billed call (issue 35), answered yes.
    await vscode.commands.executeCommand('gatewayStudio.video.testSpendDialogs', ['accept']);
    const tool = await vscode.lm.invokeTool(
      'gatewayStudio_generateVideo',
      { input: { prompt: 'a tool clip on relay', seconds: 4, images: [image] }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = tool.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    await waitFor('three creations', async () =>
      (await creations(control)).length + (await creations(control2)).length === 3 ? true : undefined,
    );
    assert.deepEqual(
      (await creations(control)).map((r) => r.body?.model),
      ['vendor-image-video'],
    );
    assert.deepEqual(
      (await creations(control2)).map((r) => r.body?.model),
      ['vendor-video-1.5', 'vendor-video-1.5'],
      text,
    );
    // An explicit model still wins over the profile's.
    assert.ok(
      await vscode.commands.executeCommand('gatewayStudio.video.generate', {
        prompt: 'explicit',
        model: 'vendor-image-video',
        seconds: 4,
        image_urls: [image],
      }),
    );
    await waitFor('the explicit creation', async () => ((await creations(control2)).length === 3 ? true : undefined));
    assert.equal((await creations(control2))[2]?.body?.model, 'vendor-image-video');
    for (const r of await creations(control2)) assert.equal(r.auth, 'valid');
    // Their polls and downloads end here, not in the next test's gateway state.
    await waitFor('the tasks to end', async () => ((await videoState()).running.length === 0 ? true : undefined));
  });

  it('removing a profile with a running video task asks first and says what happens; cancel keeps both, confirming does what it said', async function () {
    this.timeout(60_000);
    await s.profiles.setActive('relay');
    const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
      prompt: 'a slow lighthouse #never',
      model: 'vendor-image-video',
      seconds: 4,
    });
    assert.ok(key);
    await waitFor('the relay polling the task', async () => ((await polls(control2)).length > 0 ? true : undefined));
    await s.profiles.setActive('default');

    const asked: Array<{ message: string; modal?: boolean; detail?: string; items: string[] }> = [];
    const answering = (answer: 'cancel' | 'confirm') =>
      ({
        showWarningMessage: (message: string, options: vscode.MessageOptions, ...items: string[]) => {
          asked.push({ message, ...options, items });
          return Promise.resolve(answer === 'confirm' ? items[0] : undefined);
        },
      }) as unknown as Pick<typeof vscode.window, 'showWarningMessage'>;

    assert.equal(await removeProfileCommand(s, 'relay', answering('cancel')), false);
    assert.equal(asked.length, 1);
    const q = asked[0]!;
    assert.equal(q.message, 'Remove the gateway profile "Relay"?');
    assert.equal(q.modal, true);
    assert.deepEqual(q.items, ['Remove']);
    assert.match(q.detail ?? '', /^1 video task\(s\) still run on this profile: a slow lighthouse #never\./);
    assert.match(q.detail ?? '', /stop being checked and downloaded, because their key is removed with the profile/);
    assert.match(q.detail ?? '', /Add the profile again with the id "relay" and its key, then Resume/);
    // Cancelled: the profile, its key and the task are as they were, and the task is still polled.
    assert.ok(s.profiles.get('relay'));
    assert.equal(await s.profiles.keyOf('relay'), gateway2.validKey);
    assert.ok((await videoState()).running.includes(key));
    const before = (await polls(control2)).length;
    await waitFor('polling on', async () => ((await polls(control2)).length > before ? true : undefined));

    assert.equal(await removeProfileCommand(s, 'relay', answering('confirm')), true);
    assert.equal(asked.length, 2);
    assert.equal(asked[1]!.detail, q.detail, 'the question said the same the second time');
    // Done as said: the profile and its key are gone, the task is no longer checked, with no
    // other key or gateway instead, and its record is kept (with the gateway's id) for a Resume.
    assert.equal(s.profiles.get('relay'), undefined);
    assert.equal(await s.profiles.keyOf('relay'), undefined);
    // At once, not at the end of its poll round: the question said the key goes with the profile.
    await waitFor(
      'the task to stop',
      async () => ((await videoState()).running.includes(key) ? undefined : true),
      2000,
    );
    const after = (await polls(control2)).length;
    await new Promise((r) => setTimeout(r, 1500)); // five poll intervals
    assert.equal((await polls(control2)).length, after, 'still polled after the removal');
    const record = (await videoState()).tasks.find((t) => t.key === key);
    assert.ok(record, 'the task record was dropped');
    assert.equal(record.state, 'paused', 'stopped as a pause, which Resume picks up once the profile is back');
    assert.deepEqual(
      (await requests(control)).filter((r) => r.path.includes(record.videoId ?? key)),
      [],
      'the task went to the Default gateway',
    );
    assert.equal(record.profile, 'relay');
    assert.ok(record.videoId, "the gateway's task id is kept for a Resume");
    for (const r of await requests(control2)) assert.equal(r.auth, 'valid', `${r.route} with another key`);
  });
});
