// What a hostile repository or a steered model cannot make the storyboard do, in the real
// extension host: a reference image that is a symbolic link out of the workspace is never sent
// (caught when the board is checked, and again when the image is read if the link appeared
// later), and the storyboard tools for `vscode.lm` refuse exactly what the chat's forms of the same
// tools refuse: board paths that lead out (through `..`, absolute paths or links) and malformed input.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FeatureToolError } from '../../src/contracts/featureTools';
import type { Services } from '../../src/platform/services';
import type { VideoFeature } from '../../src/video/base/vscode/feature';
import {
  storyboardChatTools,
  STORYBOARD_CHAT_TOOLS,
  STORYBOARD_LM_TOOLS,
} from '../../src/video/storyboard/vscode/toolDefs';
import { imageToDataUrl } from '../../src/video/base/vscode/images';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

/** A 1x1 PNG: a real image, so only the link check can stop it. */
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface ShotView {
  id: string;
  problems: string[];
  status: { kind: string; text: string };
}

const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const debug = (file: string) =>
  vscode.commands.executeCommand<{ view?: { shots: ShotView[]; running: boolean } } | undefined>(
    'gatewayStudio.storyboard.debugState',
    file,
  );
const creations = async () =>
  ((await control('requests')) as { method: string; route: string }[]).filter(
    (r) => r.method === 'POST' && r.route === '/v1/videos/generations',
  ).length;

async function lmInvoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(
    name,
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** Every file below `dir` with its contents, to show nothing outside the workspace changed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, await snapshot(p));
    else out[p] = await fs.readFile(p, 'utf8');
  }
  return out;
}

describe('storyboards against hostile links and tool input', () => {
  let dir: string;
  let outside: string;
  before(async () => {
    await extension();
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
    dir = path.join(root(), 'guard');
    await fs.mkdir(dir, { recursive: true });
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'gws-board-out-'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('video.pollIntervalSeconds', undefined);
    await (await keyStore()).clear();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('a reference image that links out of the workspace is refused when the board is checked and again when it is read; nothing is sent', async () => {
    await control('reset');
    await fs.writeFile(path.join(outside, 'secret.png'), PNG_1x1);
    await fs.symlink(path.join(outside, 'secret.png'), path.join(dir, 'linked.png'));
    await fs.writeFile(path.join(dir, 'late.png'), PNG_1x1);
    const file = path.join(dir, 'links.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Links',
        defaults: { model: 'vendor-image-video' },
        shots: [
          { id: 'linked', prompt: 'a', seconds: 1, images: ['guard/linked.png'] },
          { id: 'late', prompt: 'b', seconds: 1, images: ['guard/late.png'] },
        ],
      }),
    );
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    const view = await waitFor('the board view', async () => (await debug(file))?.view);
    const shot = (v: typeof view, id: string) => v.shots.find((s) => s.id === id);
    assert.match(
      shot(view, 'linked')?.problems.join() ?? '',
      /"guard\/linked\.png" leads out of the workspace \(through a symbolic link\)/,
    );
    assert.deepEqual(shot(view, 'late')?.problems, [], 'a plain image inside the workspace is fine');

    // The image becomes a link after the board was checked (a checkout, another tool): the read refuses it.
    await fs.rm(path.join(dir, 'late.png'));
    await fs.symlink(path.join(outside, 'secret.png'), path.join(dir, 'late.png'));
    await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
    await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file);
    const done = await waitFor(
      'both shots stopped',
      async () => {
        const v = (await debug(file))?.view;
        const kinds = ['linked', 'late'].map((id) => v?.shots.find((s) => s.id === id)?.status.kind);
        return v && !v.running && kinds.every((k) => k === 'failed' || k === 'blocked') ? v : undefined;
      },
      30_000,
    );
    assert.equal(shot(done, 'linked')?.status.kind, 'blocked');
    assert.equal(shot(done, 'late')?.status.kind, 'failed');
    assert.match(
      shot(done, 'late')?.status.text ?? '',
      /late\.png is a symbolic link that leads outside the workspace/,
    );
    assert.equal(await creations(), 0, 'no creation request was sent');
  });

  it("a last frame is checked against the catalog in effect: the user's override can give a relay's model one, a workspace's cannot", async () => {
    const file = path.join(dir, 'frames.storyboard.json');
    const board = (title: string) =>
      JSON.stringify({
        title,
        defaults: { model: 'my-relay-frames-1' },
        shots: [
          { id: 'ends', prompt: 'a door', seconds: 5, firstFrame: { prompt: 'shut' }, lastFrame: { prompt: 'open' } },
        ],
      });
    const override = {
      families: [
        {
          id: 'my-relay-frames',
          name: 'My relay',
          kind: 'video',
          route: 'video-generations',
          models: ['^my-relay-frames'],
          textInput: true,
          durations: [5],
          firstFrame: { field: 'image', accepts: 'url-or-base64' },
          lastFrame: { field: 'metadata.image_tail', accepts: 'url-or-base64' },
        },
      ],
    };
    const cfg = () => vscode.workspace.getConfiguration('gatewayStudio');
    const problemsAfter = async (title: string) => {
      await fs.writeFile(file, board(title));
      const view = await waitFor(`the board "${title}"`, async () => {
        const v = (await debug(file))?.view as { title?: string; shots: ShotView[] } | undefined;
        return v?.title === title ? v : undefined;
      });
      return view.shots[0]?.problems.join('; ') ?? '';
    };
    try {
      await cfg().update('media.catalogOverrides', override, vscode.ConfigurationTarget.Workspace);
      await fs.writeFile(file, board('first'));
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
      assert.match(await problemsAfter('workspace override'), /my-relay-frames-1 takes no last frame/);
      await setSetting('media.catalogOverrides', override);
      assert.equal(
        await problemsAfter('user override'),
        '',
        "the user's own override is the catalog the board is checked by",
      );
    } finally {
      await cfg().update('media.catalogOverrides', undefined, vscode.ConfigurationTarget.Workspace);
      await setSetting('media.catalogOverrides', undefined);
    }
  });

  it('a reference image that is, or links to, a secret file inside the workspace is not read for upload (issue 35)', async () => {
    await fs.writeFile(path.join(dir, '.env'), 'API_KEY=sk-ref-secret\n');
    await fs.symlink(path.join(dir, '.env'), path.join(dir, 'ref.png'));
    await fs.writeFile(path.join(dir, '.env.png'), PNG_1x1);
    await fs.writeFile(path.join(dir, 'plain.png'), PNG_1x1);
    for (const name of ['ref.png', '.env.png'])
      await assert.rejects(imageToDataUrl(vscode.Uri.file(path.join(dir, name))), /may hold secrets/, name);
    assert.match(await imageToDataUrl(vscode.Uri.file(path.join(dir, 'plain.png'))), /^data:image\/png;base64,/);
  });

  it("a board's outputs folder that links out of the workspace is neither read nor written by the export", async () => {
    const outs = path.join(outside, 'outs');
    await fs.mkdir(outs, { recursive: true });
    const clip = path.join(__dirname, '..', '..', 'test', 'gateway', 'fixtures', 'clip-1s.mp4');
    await fs.copyFile(clip, path.join(outs, 'a-take1.mp4'));
    await fs.symlink(outs, path.join(dir, 'film.storyboard'));
    await fs.writeFile(
      path.join(dir, 'film.storyboard.state.json'),
      JSON.stringify({
        v: 1,
        shots: { a: { takes: [{ take: 1, state: 'saved', file: 'a-take1.mp4' }], chosen: 'a-take1.mp4' } },
      }),
    );
    const file = path.join(dir, 'film.storyboard.json');
    await fs.writeFile(file, JSON.stringify({ title: 'Film', shots: [{ id: 'a', prompt: 'one', seconds: 1 }] }));
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
    await waitFor('the board view', async () => (await debug(file))?.view);
    const call = (m: unknown) =>
      vscode.commands.executeCommand<{ ok: boolean; message?: string }>('gatewayStudio.storyboard.debugState', file, m);
    const before = await fs.readdir(outs);

    const stitch = await call({ type: 'board/stitch', requestId: 1 });
    assert.equal(stitch.ok, false);
    assert.match(stitch.message ?? '', /outside the board outputs folder, so it is not read/);
    const read = await call({ type: 'board/readTake', requestId: 2, id: 'a' });
    assert.equal(read.ok, false, 'the page gets no bytes from outside');
    const gif = new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0, 0x3b]);
    const saved = await call({ type: 'board/saveExport', requestId: 3, kind: 'gif', bytes: gif });
    assert.equal(saved.ok, false);
    assert.match(saved.message ?? '', /leads out of the workspace; nothing is written there/);
    assert.deepEqual(await fs.readdir(outs), before, 'no film and no GIF outside the workspace');
  });

  it('a dangling link from the state file to .git/hooks/pre-commit and from the outputs folder into .vscode/ is refused: nothing is created there', async () => {
    await control('reset');
    const ws = root();
    const hadGit = await fs.stat(path.join(ws, '.git')).then(
      () => true,
      () => false,
    );
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    const clips = path.join(ws, '.vscode', 'sb-clips');
    await fs.mkdir(path.dirname(hook), { recursive: true });
    await fs.rm(hook, { force: true });
    await fs.symlink(hook, path.join(dir, 'hooked.storyboard.state.json'));
    await fs.symlink(clips, path.join(dir, 'hooked.storyboard'));
    const file = path.join(dir, 'hooked.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Hooked',
        defaults: { model: 'vendor-image-video' },
        shots: [{ id: 'a', prompt: 'p', seconds: 1 }],
      }),
    );
    try {
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
      await waitFor('the board view', async () => (await debug(file))?.view);
      await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
      await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file);
      const done = await waitFor(
        'the run to end',
        async () => {
          const v = (await debug(file))?.view;
          const k = v?.shots[0]?.status.kind;
          return v && !v.running && (k === 'failed' || k === 'saved') ? v : undefined;
        },
        60_000,
      );
      assert.match(JSON.stringify(done), /leads into \.git\/; nothing is written or read there/);
      assert.equal(done.shots[0]?.status.kind, 'failed', 'the clip is not copied into .vscode/');
      assert.match(done.shots[0]?.status.text ?? '', /leads into \.vscode\//);
      // The export's writes go through the same rule.
      const gif = new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0, 0x3b]);
      const saved = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>(
        'gatewayStudio.storyboard.debugState',
        file,
        { type: 'board/saveExport', requestId: 1, kind: 'gif', bytes: gif },
      );
      assert.equal(saved.ok, false);
      await assert.rejects(fs.lstat(hook), 'no pre-commit hook was created');
      await assert.rejects(fs.lstat(clips), 'nothing was created in .vscode/');
    } finally {
      await fs.rm(hook, { force: true });
      if (!hadGit) await fs.rm(path.join(ws, '.git'), { recursive: true, force: true });
      await fs.rm(clips, { recursive: true, force: true });
    }
  });

  it('the vscode.lm storyboard tools refuse what the chat tools refuse (paths out of the workspace, links out, malformed input), and change nothing outside', async () => {
    await control('reset');
    const farBoard = JSON.stringify({ title: 'Far', shots: [{ id: 'a', prompt: 'p', seconds: 1 }] });
    await fs.writeFile(path.join(outside, 'far.storyboard.json'), farBoard);
    await fs.symlink(path.join(outside, 'far.storyboard.json'), path.join(dir, 'far.storyboard.json'));
    await fs.symlink(outside, path.join(dir, 'outdir'));
    await fs.symlink(path.join(outside, 'dangling.storyboard.json'), path.join(dir, 'dangling.storyboard.json'));
    const before = await snapshot(outside);

    // The chat's forms of the tools, as the chat panel's runner calls them (prepare first).
    const log = { info: () => undefined, warn: () => undefined };
    const chat = storyboardChatTools({ log } as unknown as Services, {} as VideoFeature);
    const chatRefusal = async (name: string, input: Record<string, unknown>): Promise<string> => {
      const t = chat.find((c) => c.name === name);
      assert.ok(t, name);
      try {
        await t.prepare(input, { signal: new AbortController().signal, callId: 'c1' });
      } catch (e) {
        assert.ok(e instanceof FeatureToolError, `${name} threw ${String(e)}`);
        return e.message;
      }
      return assert.fail(`the chat tool ${name} accepted ${JSON.stringify(input)}`);
    };

    const shots = [{ prompt: 'the login page', seconds: 1 }];
    const cases: [keyof typeof STORYBOARD_LM_TOOLS, Record<string, unknown>, RegExp][] = [
      ['create', { path: 'guard/outdir/new.storyboard.json', title: 't', shots }, /leads out of the workspace/],
      ['create', { path: 'guard/far.storyboard.json', title: 't', shots }, /leads out of the workspace/],
      ['create', { path: 'guard/dangling.storyboard.json', title: 't', shots }, /leads out of the workspace/],
      ['create', { path: '../escape.storyboard.json', title: 't', shots }, /the path leads out of the workspace/],
      ['create', { path: 'guard/..\\..\\escape.storyboard.json', title: 't', shots }, /leads out of the workspace/],
      ['create', { path: path.join(outside, 'abs.storyboard.json'), title: 't', shots }, /relative to the workspace/],
      ['create', { path: 'guard/notes.md', title: 't', shots }, /ends in \.storyboard\.json/],
      ['create', { path: 'guard/x.storyboard.json', title: 't', shots: [] }, /^shots/],
      ['create', { path: 'guard/x.storyboard.json', title: {}, shots }, /^title/],
      ['create', { path: 'guard/x.storyboard.json', title: 't', shots: Array(41).fill(shots[0]) }, /^shots/],
      [
        'create',
        { path: 'guard/x.storyboard.json', title: 't', shots: [{ prompt: 'x'.repeat(4001) }] },
        /^shots\.0\.prompt/,
      ],
      ['addShot', { path: 'guard/far.storyboard.json', shot: shots[0] }, /leads out of the workspace/],
      ['addShot', { path: 'guard/outdir/far.storyboard.json', shot: shots[0] }, /leads out of the workspace/],
      ['addShot', { path: 'guard/far.storyboard.json', shot: { prompt: 'x', seconds: -1 } }, /^shot\.seconds/],
      ['generate', { path: 'guard/far.storyboard.json' }, /leads out of the workspace/],
      ['generate', { path: 'guard/outdir/far.storyboard.json' }, /leads out of the workspace/],
      ['generate', { path: '/etc/passwd' }, /ends in \.storyboard\.json/],
      // Where the chat's file tools never write: .git/ and .vscode/, and their Windows aliases.
      ['create', { path: '.git/hooks/x.storyboard.json', title: 't', shots }, /^"\.git\/hooks.*\.git\/ holds settings/],
      ['addShot', { path: '.vscode/x.storyboard.json', shot: shots[0] }, /\.vscode\/ holds settings/],
      ['generate', { path: 'GIT~1/x.storyboard.json' }, /"GIT~1" would name another file on Windows/],
    ];
    for (const [tool, input, want] of cases) {
      const what = `${tool} ${JSON.stringify(input).slice(0, 120)}`;
      const fromChat = await chatRefusal(STORYBOARD_CHAT_TOOLS[tool], input);
      assert.match(fromChat, want, `chat tool, ${what}`);
      const fromLm = await lmInvoke(STORYBOARD_LM_TOOLS[tool], input);
      assert.equal(fromLm, fromChat, `the lm tool says what the chat tool says, ${what}`);
    }
    assert.deepEqual(await snapshot(outside), before, 'nothing outside the workspace was written');
    await assert.rejects(fs.stat(path.join(root(), '.git', 'hooks', 'x.storyboard.json')));
    await assert.rejects(fs.stat(path.join(root(), '..', 'escape.storyboard.json')));
    assert.equal(await creations(), 0, 'nothing was generated');

    // The same tool with a path inside does its work: the refusals above are the guard's, not a missing tool.
    const ok = await lmInvoke(STORYBOARD_LM_TOOLS.create, { path: 'guard/ok.storyboard.json', title: 'Ok', shots });
    assert.match(ok, /Created guard\/ok\.storyboard\.json/, ok);
    assert.ok((await fs.stat(path.join(dir, 'ok.storyboard.json'))).isFile());
  });
});
