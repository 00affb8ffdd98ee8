import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { control, gateway, keyStore, setSetting, waitFor } from './env';

/** The parts of the hidden debug-state command these tests read. */
interface VideoState {
  tasks: { key: string; state: string; videoId?: string; progress?: number; file?: string; bytes?: number }[];
  running: string[];
  statusBar: { visible: boolean; text: string; mood: string };
}

const state = (): Thenable<VideoState> => vscode.commands.executeCommand<VideoState>('gatewayStudio.video.debugState');

async function task(key: string): Promise<VideoState['tasks'][number]> {
  const t = (await state()).tasks.find((r) => r.key === key);
  assert.ok(t, `task ${key} is not in the task list`);
  return t;
}

/** Samples the status-bar text every 50 ms until `done` says stop; returns the distinct texts in order. */
async function watchStatusBar(done: (s: VideoState) => boolean, timeoutMs = 90_000): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await state();
    const text = s.statusBar.visible ? s.statusBar.text : '';
    if (text && seen[seen.length - 1] !== text) seen.push(text);
    if (done(s)) return seen;
    if (Date.now() > deadline) throw new Error(`timed out; status bar went through ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function creations(): Promise<number> {
  const counts = (await control('counts')) as Record<string, number>;
  return counts['POST /v1/videos/generations'] ?? 0;
}

describe('video generation in the extension host', () => {
  before(async () => {
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
  });
  after(async () => {
    await setSetting('video.pollIntervalSeconds', undefined);
    await (await keyStore()).clear();
  });

  it('a created task is polled with the status bar going from queued to a percentage to saved, and the MP4 lands in videos/', async () => {
    await control('reset');
    const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
      prompt: 'a red fox running through snow',
      model: 'vendor-image-video',
      seconds: 4,
    });
    assert.ok(key, 'Generate Video returned no task key (see the notifications / log)');
    // The record turns `saved` a moment before the item redraws (the store write comes first), so
    // the watch ends once the item has also stopped spinning.
    const texts = await watchStatusBar(
      (s) =>
        s.tasks.some((t) => t.key === key && (t.state === 'saved' || t.state === 'failed' || t.state === 'error')) &&
        s.statusBar.mood !== 'spinning',
    );
    const t = await task(key);
    assert.equal(t.state, 'saved', `task ended as ${t.state}; status bar: ${JSON.stringify(texts)}`);
    assert.ok(
      texts.some((x) => /· 0%$/.test(x) || /sending$/.test(x)),
      `no queued text in ${JSON.stringify(texts)}`,
    );
    assert.ok(
      texts.some((x) => /· ([1-9]\d?)%$/.test(x)),
      `no in-progress percentage in ${JSON.stringify(texts)}`,
    );
    assert.match(texts[texts.length - 1] ?? '', /Video saved/);
    assert.equal(await creations(), 1, 'exactly one creation request');

    const files = await vscode.workspace.findFiles('videos/*.mp4');
    assert.equal(files.length, 1, `videos/*.mp4: ${files.map((f) => f.path).join(', ')}`);
    const bytes = await vscode.workspace.fs.readFile(files[0]!);
    assert.equal(Buffer.from(bytes.subarray(4, 8)).toString('latin1'), 'ftyp', 'the saved file is an MP4');
    assert.ok(t.file?.endsWith(files[0]!.path.split('/').pop() ?? '?'), `record file ${t.file}`);
    assert.equal(t.bytes, bytes.byteLength);
    const sidecars = await vscode.workspace.findFiles('videos/*.json');
    assert.equal(sidecars.length, 1, 'one sidecar with the prompt and the id');
    const sidecar = Buffer.from(await vscode.workspace.fs.readFile(sidecars[0]!)).toString('utf8');
    assert.ok(sidecar.includes('a red fox running through snow') && sidecar.includes(t.videoId ?? '?'), sidecar);
  });

  it('a stopped task is resumed from its stored record and finishes without a second creation', async () => {
    await control('reset');
    // "#never" keeps the task in progress until the gateway is told to complete it.
    const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
      prompt: 'a lighthouse at dusk #never',
      model: 'vendor-image-video',
    });
    assert.ok(key, 'Generate Video returned no task key');
    const polling = await waitFor('the task to be polled with an id', async () => {
      const t = await task(key);
      return t.state === 'polling' && t.videoId && (await state()).running.includes(key) ? t : undefined;
    });
    await vscode.commands.executeCommand('gatewayStudio.video.taskAction', key, 'stop');
    await waitFor('the task to stop running', async () => !(await state()).running.includes(key));
    assert.equal((await task(key)).state, 'paused');
    await control(`videos/${polling.videoId}/complete`, {});
    await vscode.commands.executeCommand('gatewayStudio.video.taskAction', key, 'resume');
    const done = await waitFor(
      'the resumed task to end',
      async () => {
        const t = await task(key);
        return ['saved', 'failed', 'error'].includes(t.state) ? t : undefined;
      },
      90_000,
    );
    assert.equal(done.state, 'saved');
    assert.equal(done.videoId, polling.videoId);
    assert.equal(await creations(), 1, 'resuming never creates the task again');
  });

  it('a workspace setting that sends videos outside the workspace is refused, naming the setting, and nothing is written there', async () => {
    await control('reset');
    const cfg = vscode.workspace.getConfiguration('gatewayStudio');
    await cfg.update('video.outputFolder', '../outside-videos', vscode.ConfigurationTarget.Workspace);
    try {
      const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
        prompt: 'a repository that wants my files',
        model: 'vendor-image-video',
      });
      assert.ok(key, 'Generate Video returned no task key');
      const t = await waitFor(
        'the task to end',
        async () => {
          const r = (await state()).tasks.find((x) => x.key === key) as
            (VideoState['tasks'][number] & { error?: { kind?: string; detail?: string; title?: string } }) | undefined;
          return r && ['saved', 'failed', 'error'].includes(r.state) ? r : undefined;
        },
        90_000,
      );
      assert.equal(t.state, 'error', `the task ended as ${t.state}`);
      assert.match(`${t.error?.title ?? ''} ${t.error?.detail ?? ''}`, /outputFolder/, JSON.stringify(t.error));
      assert.equal(t.file, undefined, 'no file was saved');
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const outside = vscode.Uri.joinPath(folder, '..', 'outside-videos');
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(outside)), 'the outside folder was not created');
      assert.equal(await creations(), 1, 'the task was created once and stays resumable');
    } finally {
      await cfg.update('video.outputFolder', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
