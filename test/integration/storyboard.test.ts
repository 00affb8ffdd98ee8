// A storyboard in a real VS Code: the custom editor over the local gateway's real clips, the chain
// (the second shot carries the first clip's last frame as a PNG data URL decoded in the page), the
// state file and outputs beside the board, and what a hostile board cannot make it do.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { control, gateway, keyStore, setSetting, waitFor } from './env';

interface ShotView {
  id: string;
  problems: string[];
  status: { kind: string; text: string };
}
interface Debug {
  view?: { error?: string; shots: ShotView[]; running: boolean };
  state: { shots: Record<string, { takes: { state: string; file?: string; videoId?: string }[]; chosen?: string }> };
}
interface Req {
  method: string;
  route: string;
  body: { prompt?: string; image_urls?: string[] };
}

const root = () => {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the integration run opens a folder');
  return f.uri.fsPath;
};
const debug = (file: string) =>
  vscode.commands.executeCommand<Debug | undefined>('gatewayStudio.storyboard.debugState', file);
const creations = async () =>
  ((await control('requests')) as Req[]).filter((r) => r.method === 'POST' && /\/v1\/videos/.test(r.route));

/**
 * Turns on VS Code's global tool auto-approve (the current name of chat.tools.autoApprove). Its
 * one-time opt-in dialog cannot be shown in an extension test; VS Code's own test-mode context
 * key stands for the opt-in, so the setting then applies as it does for a user who accepted it.
 */
async function enableAutoApprove(chat: vscode.WorkspaceConfiguration): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  await chat.update('tools.global.autoApprove', true, vscode.ConfigurationTarget.Global);
}

describe('storyboards in the extension host', () => {
  let dir: string;
  before(async () => {
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
    dir = path.join(root(), 'boards');
    await fs.mkdir(dir, { recursive: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('video.pollIntervalSeconds', undefined);
    await (await keyStore()).clear();
  });

  it("a chained board runs in order: the second POST carries the first clip's last frame, hostile and missing images stop only their shots", async () => {
    await control('reset');
    const file = path.join(dir, 'demo.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Demo',
        defaults: { model: 'vendor-image-video', resolution: '480p', aspectRatio: '16:9' },
        shots: [
          { id: 'open', prompt: 'the login page', seconds: 1 },
          { id: 'type', prompt: 'typing the password', seconds: 2, continueFrom: 'previous' },
          { id: 'steal', prompt: 'x', seconds: 1, images: ['../../.ssh/id_rsa'] },
          { id: 'gone', prompt: 'y', seconds: 1, images: ['boards/missing.png'] },
          { id: 'far', prompt: 'z', seconds: 1, images: ['http://attacker.example/x.png'] },
        ],
      }),
    );
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    const first = await waitFor('the board view', async () => (await debug(file))?.view);
    const shot = (id: string) => first.shots.find((s) => s.id === id);
    assert.match(shot('steal')?.problems.join() ?? '', /"\.\.\/\.\.\/\.ssh\/id_rsa" leads out of the workspace/);
    assert.match(shot('gone')?.problems.join() ?? '', /"boards\/missing\.png" does not exist/);
    assert.match(shot('far')?.problems.join() ?? '', /uses http/);
    assert.deepEqual(shot('open')?.problems, []);

    // Declined: nothing is sent.
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [false]);
    assert.match(
      (await vscode.commands.executeCommand<string>('gatewayStudio.storyboard.generate', file)) ?? '',
      /declined/,
    );
    const shown = await vscode.commands.executeCommand<{ message: string }[]>('gatewayStudio.storyboard.testApprovals');
    assert.match(
      shown[0]?.message ?? '',
      /Generate 5 shot\(s\) of "Demo": 5 clip\(s\), 6 s in all, with vendor-image-video\?/,
    );
    assert.equal((await creations()).length, 0);

    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file);
    const done = await waitFor(
      'both runnable shots saved',
      async () => {
        const d = await debug(file);
        const st = (id: string) => d?.view?.shots.find((s) => s.id === id)?.status.kind;
        if (st('type') === 'failed') throw new Error(d?.view?.shots.find((s) => s.id === 'type')?.status.text);
        return st('open') === 'saved' && st('type') === 'saved' && !d?.view?.running ? d : undefined;
      },
      90_000,
    );
    const posts = await creations();
    assert.equal(posts.length, 2, 'exactly the two runnable shots were created');
    assert.equal(posts[0]?.body.prompt, 'the login page');
    assert.equal(posts[0]?.body.image_urls, undefined);
    assert.equal(posts[1]?.body.prompt, 'typing the password');
    assert.match(posts[1]?.body.image_urls?.[0] ?? '', /^data:image\/png;base64,/);
    for (const id of ['steal', 'gone', 'far'])
      assert.equal(done.view?.shots.find((s) => s.id === id)?.status.kind, 'blocked', id);

    // The state file and the clips beside the board.
    const state = JSON.parse(await fs.readFile(path.join(dir, 'demo.storyboard.state.json'), 'utf8')) as Debug['state'];
    assert.equal(state.shots.open?.chosen, 'open-take1.mp4');
    assert.equal(state.shots.type?.chosen, 'type-take1.mp4');
    assert.ok(state.shots.open?.takes[0]?.videoId);
    for (const f of ['open-take1.mp4', 'type-take1.mp4'])
      assert.ok((await fs.stat(path.join(dir, 'demo.storyboard', f))).size > 1000, f);

    // Generate all again: nothing left that can run, and nothing is sent twice.
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file, 'open');
    assert.equal((await creations()).length, 2);
  });

  it("two chained shots approved, shot 2's model changed after shot 1 started: shot 2 is not created without a new approval", async () => {
    await control('reset');
    const file = path.join(dir, 'frozen.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify(
        {
          title: 'Frozen',
          defaults: { model: 'vendor-image-video', resolution: '480p', aspectRatio: '16:9' },
          shots: [
            { id: 'one', prompt: 'the first', seconds: 1 },
            { id: 'two', prompt: 'the second', seconds: 1, continueFrom: 'previous' },
          ],
        },
        null,
        2,
      ),
    );
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'gatewayStudio.storyboard');
    await waitFor('the board view', async () => (await debug(file))?.view);
    // One answer: the run's approval. A second question (the changed shot) gets no.
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file);
    await waitFor('shot 1 created', async () => ((await creations()).length === 1 ? true : undefined));

    // The board is edited while shot 1 runs: shot 2 now names another model.
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    const at = text.lastIndexOf('"prompt": "the second"');
    assert.ok(at > 0);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, doc.positionAt(at), '"model": "vendor-video-1.5",\n      ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // Saved, so no editor is left dirty (closing one would ask).
    assert.ok(await doc.save());

    const done = await waitFor(
      'the run to end',
      async () => {
        const v = (await debug(file))?.view;
        const two = v?.shots.find((x) => x.id === 'two');
        return v && !v.running && two && ['failed', 'saved'].includes(two.status.kind) ? v : undefined;
      },
      90_000,
    );
    const two = done.shots.find((x) => x.id === 'two');
    assert.equal(two?.status.kind, 'failed', two?.status.text);
    assert.match(
      two?.status.text ?? '',
      /changed after the approval \(model vendor-image-video -> vendor-video-1\.5\)/,
    );
    const shown = await vscode.commands.executeCommand<{ message: string }[]>('gatewayStudio.storyboard.testApprovals');
    assert.equal(shown.length, 2, 'the changed shot asked again');
    assert.match(
      shown[1]?.message ?? '',
      /Shot "two" take 1 changed after you approved the run \(model vendor-image-video -> vendor-video-1\.5\)/,
    );
    const posts = await creations();
    assert.equal(posts.length, 1, 'no creation request for shot 2');
    assert.equal(posts[0]?.body.prompt, 'the first');
  });

  it("an agent's storyboard generation (vscode.lm) gets Gateway Studio's own question, even with VS Code's auto-approve on; declined, nothing is created", async () => {
    await control('reset');
    const file = path.join(dir, 'agent.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Agent',
        defaults: { model: 'vendor-image-video' },
        shots: [{ id: 'a', prompt: 'p', seconds: 1 }],
      }),
    );
    const chat = vscode.workspace.getConfiguration('chat');
    await enableAutoApprove(chat);
    try {
      await vscode.commands.executeCommand('gatewayStudio.video.testSpendDialogs', ['decline']);
      const r = await vscode.lm.invokeTool(
        'gatewayStudio_generateStoryboard',
        { input: { path: 'boards/agent.storyboard.json' }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /declined it in Gateway Studio's own confirmation/, text);
      const shown = await vscode.commands.executeCommand<{ message: string; detail?: string }[]>(
        'gatewayStudio.video.testSpendDialogs',
      );
      assert.equal(shown.length, 1);
      assert.match(shown[0]!.message, /Another agent asks to spend money: Generate storyboard clips: 1 clip\(s\)/);
      assert.match(shown[0]!.detail ?? '', /[Pp]rice/);
      await new Promise((res) => setTimeout(res, 500));
      assert.equal((await creations()).length, 0, 'no creation request');
    } finally {
      await chat.update('tools.global.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("an agent's generation names the keyframe images it makes first and prices them; one of unknown price asks despite the allowance", async () => {
    await control('reset');
    const file = path.join(dir, 'keyed.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Keyed',
        defaults: { model: 'vendor-image-video' },
        shots: [
          { id: 'a', prompt: 'p', seconds: 1, firstFrame: { prompt: 'a red door', model: 'gpt-image-1' } },
          { id: 'b', prompt: 'q', seconds: 1, firstFrame: { prompt: 'a blue door' } },
        ],
      }),
    );
    const chat = vscode.workspace.getConfiguration('chat');
    await enableAutoApprove(chat);
    // Far above any price: only the keyframe without a model (its price unknown) makes it ask.
    await setSetting('spend.agentAllowance', 1_000_000);
    try {
      await vscode.commands.executeCommand('gatewayStudio.video.testSpendDialogs', ['decline']);
      const r = await vscode.lm.invokeTool(
        'gatewayStudio_generateStoryboard',
        { input: { path: 'boards/keyed.storyboard.json' }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /declined it in Gateway Studio's own confirmation/, text);
      const shown = await vscode.commands.executeCommand<{ message: string; detail?: string }[]>(
        'gatewayStudio.video.testSpendDialogs',
      );
      assert.equal(shown.length, 1);
      assert.match(
        shown[0]!.message,
        /Another agent asks to spend money: Generate storyboard clips: 2 clip\(s\) and 2 keyframe image\(s\)/,
      );
      assert.match(shown[0]!.detail ?? '', /a keyframe without a model is made with your last image model/);
      assert.match(
        shown[0]!.detail ?? '',
        /With the price unknown, gatewayStudio\.spend\.agentAllowance cannot cover it/,
      );
      await new Promise((res) => setTimeout(res, 500));
      const counts = (await control('counts')) as Record<string, number>;
      assert.equal(counts['POST /v1/images/generations'] ?? 0, 0, 'no keyframe image made');
      assert.equal((await creations()).length, 0, 'no creation request');
    } finally {
      await setSetting('spend.agentAllowance', undefined);
      await chat.update('tools.global.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("the export panel's stitch joins the chosen takes into film.mp4 in the board's outputs folder; a hostile page gets no path", async () => {
    const fixtures = path.join(__dirname, '..', '..', 'test', 'gateway', 'fixtures');
    const file = path.join(dir, 'film.storyboard.json');
    const out = path.join(dir, 'film.storyboard');
    await fs.mkdir(out, { recursive: true });
    await fs.copyFile(path.join(fixtures, 'clip-1s.mp4'), path.join(out, 'a-take1.mp4'));
    await fs.copyFile(path.join(fixtures, 'clip-2s.mp4'), path.join(out, 'b-take2.mp4'));
    await fs.copyFile(path.join(fixtures, 'clip-3s.mp4'), path.join(out, 'b-take1.mp4'));
    await fs.writeFile(
      path.join(dir, 'film.storyboard.state.json'),
      JSON.stringify({
        v: 1,
        shots: {
          a: { takes: [{ take: 1, state: 'saved', file: 'a-take1.mp4' }], chosen: 'a-take1.mp4' },
          b: {
            takes: [
              { take: 1, state: 'saved', file: 'b-take1.mp4' },
              { take: 2, state: 'saved', file: 'b-take2.mp4' },
            ],
            chosen: 'b-take2.mp4',
          },
        },
      }),
    );
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Film',
        defaults: { model: 'vendor-image-video' },
        shots: [
          { id: 'a', prompt: 'one', seconds: 1 },
          { id: 'b', prompt: 'two', seconds: 2, takes: 2, chosenTake: 2 },
        ],
      }),
    );
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    await waitFor('the board view', async () => (await debug(file))?.view);
    const call = (m: unknown) =>
      vscode.commands.executeCommand<Record<string, unknown>>('gatewayStudio.storyboard.debugState', file, m);

    const r = await call({ type: 'board/stitch', requestId: 1 });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.file, 'boards/film.storyboard/film.mp4');
    // clip-1s then the chosen take 2 of b (clip-2s, not the 3 s take 1): 3 s within one frame.
    assert.ok(Math.abs(Number(r.durationSeconds) - 3) < 0.05, String(r.durationSeconds));
    const film = await fs.readFile(path.join(out, 'film.mp4'));
    assert.equal(film.subarray(4, 8).toString('latin1'), 'ftyp');
    const again = await call({ type: 'board/stitch', requestId: 2 });
    assert.notEqual(again.file, r.file, 'a second film never overwrites the first');

    // A hostile page: a path where a kind belongs, a kind that is the host's, bytes that are no GIF.
    assert.equal(
      (await call({ type: 'board/saveExport', requestId: 3, kind: '../../x', bytes: new Uint8Array(8) })).ok,
      false,
    );
    assert.equal(
      (await call({ type: 'board/saveExport', requestId: 4, kind: 'film', bytes: new Uint8Array(8) })).ok,
      false,
    );
    assert.equal(
      (await call({ type: 'board/saveExport', requestId: 5, kind: 'gif', bytes: new Uint8Array(8) })).ok,
      false,
    );
    assert.equal((await call({ type: 'board/readTake', requestId: 6, id: '../a' })).ok, false);
    const read = await call({ type: 'board/readTake', requestId: 7, id: 'a' });
    assert.equal((read.bytes as Uint8Array).byteLength, (await fs.stat(path.join(out, 'a-take1.mp4'))).size);
    assert.deepEqual(
      (await fs.readdir(out)).sort(),
      ['a-take1.mp4', 'b-take1.mp4', 'b-take2.mp4', 'film-2.mp4', 'film.mp4'].sort(),
    );
  });

  it('a board with a syntax error shows the error with its line and is never written', async () => {
    const file = path.join(dir, 'broken.storyboard.json');
    const text = '{\n  "title": "x",\n  "shots": [ { "id": "a" "prompt": "p" } ]\n}\n';
    await fs.writeFile(file, text);
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    const view = await waitFor('the error view', async () => (await debug(file))?.view);
    assert.match(view.error ?? '', /^Line 3, column 26: CommaExpected/);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    assert.match(
      (await vscode.commands.executeCommand<string>('gatewayStudio.storyboard.generate', file)) ?? '',
      /does not parse/,
    );
    assert.equal(await fs.readFile(file, 'utf8'), text);
  });

  it('a state file claiming running task ids starts and polls nothing', async () => {
    await control('reset');
    const file = path.join(dir, 'claimed.storyboard.json');
    await fs.writeFile(file, JSON.stringify({ title: 'c', shots: [{ id: 'a', prompt: 'p', seconds: 1 }] }));
    await fs.writeFile(
      path.join(dir, 'claimed.storyboard.state.json'),
      JSON.stringify({
        v: 1,
        shots: { a: { takes: [{ take: 1, state: 'running', taskKey: 'not-ours', videoId: 'video_claimed' }] } },
      }),
    );
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    const view = await waitFor('the claimed board', async () => (await debug(file))?.view);
    assert.match(view.shots[0]?.status.text ?? '', /not by this window: use Resume/);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    assert.match(
      (await vscode.commands.executeCommand<string>('gatewayStudio.storyboard.generate', file)) ?? '',
      /Nothing to generate/,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const reqs = (await control('requests')) as Req[];
    assert.equal(reqs.filter((r) => /videos/.test(r.route)).length, 0, 'no creation and no poll of the claimed id');
  });
});
