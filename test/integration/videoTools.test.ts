// The video tools in the real extension host: `vscode.lm.invokeTool` on the extension's own
// tools (the confirmation dialog is accepted by the workbench in extension tests), the gallery
// opened by Show Video Tasks, and the chat-tool form of the same tools run by the chat's ToolRunner.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MediaJobSource } from '../../src/contracts/featureTools';
import { HttpClient } from '../../src/api/transport/http';
import { VideoClient } from '../../src/api/video/video';
import { ToolRunner, type ApprovalRequest } from '../../src/chat/tools/core/runner';
import { featureTool } from '../../src/chat/tools/vscode/featureTools';
import { VideoJobManager } from '../../src/video/jobs/core/manager';
import { MemoryTaskStore, type VideoTaskRecord } from '../../src/video/jobs/core/record';
import type { VideoFeature } from '../../src/video/base/vscode/feature';
import { VideoAgent } from '../../src/video/tools/vscode/agent';
import { videoChatTools } from '../../src/video/tools/vscode/lmTools';
import { generateToolDescription, statusToolDescription } from '../../src/video/tools/core/agentText';
import { catalogRulesText } from '../../src/video/tools/core/catalogText';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

const GENERATE = 'gatewayStudio_generateVideo';
const STATUS = 'gatewayStudio_videoStatus';
/** A 1x1 PNG: a reference image in the workspace. */
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function invoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(
    name,
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/**
 * Answers Gateway Studio's own question before a billed tool call (issue 35: VS Code's confirmation
 * may be auto-approved, so the extension asks itself) and returns how many it asked.
 */
const answerAgentDialogs = (answers: Array<'accept' | 'decline'>) =>
  vscode.commands.executeCommand('gatewayStudio.video.testSpendDialogs', answers);

async function creations(): Promise<{ count: number; bodies: Record<string, unknown>[] }> {
  const counts = (await control('counts')) as Record<string, number>;
  const requests = (await control('requests')) as { route: string; method: string; body: Record<string, unknown> }[];
  return {
    count: counts['POST /v1/videos/generations'] ?? 0,
    bodies: requests.filter((r) => r.method === 'POST' && r.route === '/v1/videos/generations').map((r) => r.body),
  };
}

/**
 * Turns on VS Code's global tool auto-approve (the current name of chat.tools.autoApprove). Its
 * one-time opt-in dialog cannot be shown in an extension test; VS Code's own test-mode context
 * key stands for the opt-in, so the setting then applies as it does for a user who accepted it.
 */
async function enableAutoApprove(chat: vscode.WorkspaceConfiguration): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  await chat.update('tools.global.autoApprove', true, vscode.ConfigurationTarget.Global);
}

describe('video tools for agents (vscode.lm) and the gallery', () => {
  before(async () => {
    await extension();
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
  });
  after(async () => {
    await setSetting('video.pollIntervalSeconds', undefined);
    await (await keyStore()).clear();
  });

  it('both tools are in vscode.lm.tools with their tags and input schemas', () => {
    const gen = vscode.lm.tools.find((t) => t.name === GENERATE);
    const st = vscode.lm.tools.find((t) => t.name === STATUS);
    assert.ok(gen && st, `lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.ok(gen.tags.includes('video') && st.tags.includes('video'));
    assert.deepEqual((gen.inputSchema as { required?: string[] }).required, ['prompt']);
    assert.match(gen.description, /vendor-video-1\.5: image-to-video only/);
  });

  it('the confirmation names the model, the duration, the resolution and the references', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await fs.writeFile(path.join(folder, 'diagram.png'), PNG_1x1);
    const p = await vscode.commands.executeCommand<{ title?: string; message?: string }>(
      'gatewayStudio.video.debugPrepareTool',
      {
        prompt: 'this diagram, animated',
        model: 'vendor-video-1.5',
        seconds: 4,
        resolution: '480p',
        images: ['diagram.png'],
      },
    );
    assert.match(p.title ?? '', /vendor-video-1\.5/);
    assert.match(p.title ?? '', /4 s/);
    assert.match(p.message ?? '', /Duration: 4 s/);
    assert.match(p.message ?? '', /Resolution: 480p/);
    assert.match(p.message ?? '', /diagram\.png/);
    assert.match(p.message ?? '', /billed/);
  });

  it('an invalid input (vendor-video-1.5 without an image) returns the rule and sends nothing', async () => {
    await control('reset');
    const text = await invoke(GENERATE, { prompt: 'a comet', model: 'vendor-video-1.5', seconds: 4 });
    assert.match(text, /not sent/);
    assert.match(text, /- text-to-video \(image_urls\): .*exactly one reference image/);
    const bad = await invoke(GENERATE, { prompt: 'a comet', seconds: 'four' });
    assert.match(bad, /- input-seconds/);
    assert.equal((await creations()).count, 0, 'no creation request was sent');
  });

  it('generate creates exactly one task, answers at once with id, status and path; status reports it running, then saved with its path', async () => {
    await control('reset');
    await answerAgentDialogs(['accept']);
    const text = await invoke(GENERATE, {
      prompt: 'a lighthouse in a storm #never',
      model: 'vendor-image-video',
      seconds: 4,
      aspectRatio: '16:9',
    });
    const id = /Started video task (video_svc_v1_[0-9a-f]+) \(status: queued/.exec(text)?.[1];
    assert.ok(id, text);
    assert.match(text, /saved to videos\/a-lighthouse-in-a-storm-never-[a-z0-9]+\.mp4/);
    assert.match(text, /video status tool/);
    assert.equal((await creations()).count, 1, 'one POST');

    const running = await waitFor('the status tool to report progress', async () => {
      const s = await invoke(STATUS, { id });
      return /status: polling \(gateway: in_progress\)/.test(s) ? s : undefined;
    });
    assert.match(running, /progress: [1-9]\d?%/);
    await control(`videos/${id}/complete`, {});
    const saved = await waitFor(
      'the status tool to report the saved file',
      async () => {
        const s = await invoke(STATUS, { id });
        return /status: saved/.test(s) ? s : undefined;
      },
      60_000,
    );
    assert.match(saved, /file: videos\/a-lighthouse-in-a-storm-never-[a-z0-9]+\.mp4/);
    const latest = await invoke(STATUS, {});
    assert.match(latest, new RegExp(id));
    assert.equal((await creations()).count, 1, 'still one POST: status checks never create');
  });

  it('invoke without its prepareInvocation (the confirmation) is refused and sends nothing; the real invokeTool path still starts one task', async () => {
    await control('reset');
    const input = { prompt: 'an unconfirmed comet', model: 'vendor-image-video', seconds: 4 };
    const unprepared = async () =>
      vscode.commands.executeCommand<string>('gatewayStudio.video.testInvokeUnprepared', input);
    assert.match(await unprepared(), /not confirmed by the user/);
    // Showing the confirmation's text (the debug prepare command) does not count as a confirmation.
    await vscode.commands.executeCommand('gatewayStudio.video.debugPrepareTool', input);
    assert.match(await unprepared(), /not confirmed by the user/);
    assert.equal((await creations()).count, 0, 'no creation request was sent');

    // vscode.lm.invokeTool calls prepareInvocation (the workbench shows and, in tests, accepts the
    // confirmation) and then invoke with the same input: that path starts the task.
    await answerAgentDialogs(['accept']);
    assert.match(await invoke(GENERATE, input), /Started video task/);
    assert.equal((await creations()).count, 1);
    // Its confirmation was used up: the same plan again, without a new confirmation, is refused.
    assert.match(await unprepared(), /not confirmed by the user/);
    assert.equal((await creations()).count, 1, 'still one POST');
  });

  it("with VS Code's auto-approve on, an agent's generate call still gets Gateway Studio's own question naming the price; declined, no creation request reaches the gateway", async () => {
    await control('reset');
    // VS Code's global auto-approve (the current name of chat.tools.autoApprove) skips its own
    // confirmation of every tool: only the extension's question stands between an agent and the bill.
    const chat = vscode.workspace.getConfiguration('chat');
    await enableAutoApprove(chat);
    const input = { prompt: 'an auto-approved comet', model: 'vendor-image-video', seconds: 4 };
    try {
      await answerAgentDialogs(['decline']);
      const text = await invoke(GENERATE, input);
      const shown = await vscode.commands.executeCommand<{ message: string; detail?: string }[]>(
        'gatewayStudio.video.testSpendDialogs',
      );
      assert.equal(shown.length, 1, 'our own question was asked');
      assert.match(shown[0]!.message, /Another agent asks to spend money: a 4 s video with vendor-image-video/);
      assert.match(shown[0]!.detail ?? '', /^Price( unknown)?:/, 'it names the price or says it is unknown');
      assert.match(text, /declined it in Gateway Studio's own confirmation/, text);
      assert.equal((await creations()).count, 0, 'declined: no creation request');

      await answerAgentDialogs(['accept']);
      assert.match(await invoke(GENERATE, input), /Started video task/);
      assert.equal((await creations()).count, 1, 'accepted: one creation request');
    } finally {
      await chat.update('tools.global.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a workspace image becomes the one data URL of an image-to-video request', async () => {
    await control('reset');
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await fs.writeFile(path.join(folder, 'diagram.png'), PNG_1x1);
    await answerAgentDialogs(['accept']);
    const text = await invoke(GENERATE, {
      prompt: 'make a 4-second clip of this diagram',
      model: 'vendor-video-1.5',
      seconds: 4,
      images: ['diagram.png'],
    });
    assert.match(text, /Started video task/, text);
    const { count, bodies } = await creations();
    assert.equal(count, 1);
    const urls = bodies[0]?.image_urls as string[] | undefined;
    assert.equal(urls?.length, 1);
    assert.equal(urls?.[0], `data:image/png;base64,${PNG_1x1.toString('base64')}`);
  });

  it('a workspace image that is a symbolic link leading outside the workspace is refused and nothing is sent', async () => {
    await control('reset');
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gws-ref-out-'));
    const secret = path.join(outside, 'id_rsa');
    await fs.writeFile(secret, 'PRIVATE KEY THAT MUST STAY HERE');
    const link = path.join(folder, 'linked-ref.png');
    await fs.symlink(secret, link);
    try {
      const text = await invoke(GENERATE, {
        prompt: 'make a 4-second clip of this diagram',
        model: 'vendor-video-1.5',
        seconds: 4,
        images: ['linked-ref.png'],
      });
      assert.match(text, /not sent/, text);
      assert.match(text, /linked-ref\.png.*symbolic link that leads outside the workspace/, text);
      assert.equal((await creations()).count, 0, 'no creation request was sent');
    } finally {
      await fs.unlink(link);
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('Show Video Tasks opens the gallery, which lists the saved video with a webview link to it', async () => {
    await vscode.commands.executeCommand('gatewayStudio.video.showTasks');
    const g = await waitFor('the gallery to be ready with a saved task', async () => {
      const d = await vscode.commands.executeCommand<{
        ready: boolean;
        visible: boolean;
        tasks: { state: string; src?: string; prompt: string }[];
      }>('gatewayStudio.video.debugGallery');
      return d.ready && d.tasks.some((t) => t.state === 'saved' && t.src) ? d : undefined;
    });
    assert.ok(g.visible, 'the gallery view is visible');
    const saved = g.tasks.find((t) => t.state === 'saved' && t.src)!;
    assert.ok(!saved.src!.startsWith('file:'), `a webview URI, not a file path: ${saved.src}`);
    // Its page loaded once: the images folder was one of its roots from the start (a change of
    // roots reloads the page, which the first refresh once did; a reload says ready again within
    // a few seconds even on a busy machine).
    let loads = 0;
    for (let waited = 0; waited < 4000 && loads <= 1; waited += 250) {
      await new Promise((r) => setTimeout(r, 250));
      loads = (await vscode.commands.executeCommand<{ loads: number }>('gatewayStudio.video.debugGallery')).loads;
    }
    assert.equal(loads, 1, `the gallery's page loaded ${loads} times`);
  });
});

describe("video tools in the chat tool runner (the chat panel's seam)", () => {
  let dir: string;
  before(async () => {
    await extension();
    await (await keyStore()).set(gateway.validKey);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gs-chat-video-'));
  });
  after(async () => {
    await (await keyStore()).clear();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('generate_video asks for approval naming model and duration, then starts one task; video_status reports it', async () => {
    await control('reset');
    const changed = new vscode.EventEmitter<{ record: VideoTaskRecord; removed: boolean }>();
    const client = new VideoClient(
      new HttpClient({ baseUrl: gateway.videoUrl, apiKey: gateway.validKey, maxRetries: 0 }),
    );
    const manager = new VideoJobManager(
      {
        api: client,
        store: new MemoryTaskStore(),
        pollIntervalMs: () => 100,
        pollLimit: () => 100,
        destination: () => Promise.resolve(dir),
      },
      { onChange: (record, removed) => changed.fire({ record, removed }) },
    );
    const feature: VideoFeature = {
      manager,
      onDidChange: changed.event,
      outputDir: () => dir,
      start: async (request, labels) => (await manager.submit({ request, imageLabels: labels })).record,
      quote: () => Promise.resolve({ known: false, line: 'Price unknown: a stand-in feature.' }),
      costOf: () => undefined,
      confirmAgent: () => Promise.resolve('allowed' as const),
      plan: (input) => new VideoAgent(feature).plan(input),
      videoModel: () => 'vendor-image-video',
    };
    const approvals: ApprovalRequest[] = [];
    const source: MediaJobSource = {
      kind: 'video',
      watch: () => ({ dispose: () => undefined }),
      describe: () => Promise.resolve(undefined),
      resourceRoots: () => [],
      act: () => Promise.resolve(),
    };
    // As package.json ships them (the extension hands these to the chat).
    const descriptions = { generate: generateToolDescription(catalogRulesText()), status: statusToolDescription() };
    const follows: { conversationId: string; callId: string; key: string; source: MediaJobSource }[] = [];
    const runner = new ToolRunner({
      tools: () =>
        videoChatTools(feature, descriptions, source).map((t) =>
          featureTool(t, (conversationId, callId, key, s) => follows.push({ conversationId, callId, key, source: s })),
        ),
      approve: (r) => {
        approvals.push(r);
        return Promise.resolve('allow');
      },
      trust: { isTrusted: () => false, trust: () => undefined },
    });
    const call = (id: string, name: string, args: unknown) => ({
      id,
      type: 'function' as const,
      function: { name, arguments: JSON.stringify(args) },
    });
    const ctx = { signal: new AbortController().signal, conversationId: 'c' };
    const [refused] = await runner.execute(
      [call('c0', 'generate_video', { prompt: 'x', model: 'vendor-video-1.5' })],
      ctx,
    );
    assert.match(refused?.content ?? '', /- text-to-video/);
    assert.equal(approvals.length, 0, 'a refused request asks nothing');
    const [started] = await runner.execute(
      [call('c1', 'generate_video', { prompt: 'a paper plane #never', model: 'vendor-image-video', seconds: 6 })],
      ctx,
    );
    assert.equal(approvals[0]?.name, 'generate_video');
    assert.equal(approvals[0]?.readOnly, false, 'a changing tool');
    assert.match(approvals[0]?.summary ?? '', /vendor-image-video[\s\S]*Duration: 6 s[\s\S]*billed/);
    // The card's own line while it asks: the price, as the image tools' cards show theirs.
    assert.equal(approvals[0]?.warning, 'Price unknown: a stand-in feature. Billed to your gateway account.');
    const id = /Started video task (video_svc_v1_[0-9a-f]+)/.exec(started?.content ?? '')?.[1];
    assert.ok(id, started?.content);
    assert.equal((await creations()).count, 1);
    // The card of the call that started the task follows that task (and only that call's card).
    assert.deepEqual(
      follows.map((f) => [f.conversationId, f.callId, f.key, f.source === source]),
      [['c', 'c1', manager.list().find((r) => r.videoId === id)?.key, true]],
    );
    const [status] = await runner.execute([call('c2', 'video_status', { id })], ctx);
    assert.match(status?.content ?? '', new RegExp(`Task ${id}`));
    manager.dispose();
    changed.dispose();
  });
});
