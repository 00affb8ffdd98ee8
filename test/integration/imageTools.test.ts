// The image tools in a real extension host against the local gateway: #generateImage and
// #editImage through `vscode.lm.invokeTool` (the workbench accepts VS Code's confirmation in
// extension tests; Gateway Studio's own price question is answered through the test seam), the
// price before the submit, the images saved into the workspace's images folder, the ledger's
// count of kind image, and the refusals that send nothing (n over the limit, a path outside the
// workspace, a declined price, a workspace that points the output folder outside).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccountDebugState } from '../../src/account/vscode/debugState';
import { makePng } from '../gateway/images';
import { control, extension, gateway, keyStore, setSetting, waitFor, writeWorkspaceSettings } from './env';

const GENERATE = 'gatewayStudio_generateImage';
const EDIT = 'gatewayStudio_editImage';
const PRICE = 'about $0.08: 2 image(s) × $0.04, gpt-image-1';

async function invoke(name: string, input: object): Promise<string> {
  const r = await vscode.lm.invokeTool(
    name,
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}
const prepare = (operation: 'generate' | 'edit', input: object) =>
  vscode.commands.executeCommand<{ title?: string; message?: string; refused?: string }>(
    'gatewayStudio.images.debugPrepareTool',
    operation,
    input,
  );
type Dialog = { message: string; detail?: string };
const answerDialogs = (answers: Array<'accept' | 'decline'>) =>
  vscode.commands.executeCommand('gatewayStudio.images.testDialogs', answers);
const dialogs = () => vscode.commands.executeCommand<Dialog[]>('gatewayStudio.images.testDialogs');
const counts = async () => (await control('counts')) as Record<string, number>;
const accountState = () => vscode.commands.executeCommand<AccountDebugState>('gatewayStudio.spend.debugState');
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

describe('image tools for agents (vscode.lm)', () => {
  const made: string[] = [];
  before(async () => {
    await extension();
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await waitFor('the account feature', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.spend.debugState'),
    );
    await control('reset');
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    // The prices are read once in the background after a reading; the quote waits for nothing.
    await waitFor('a known price in the approval', async () =>
      (await prepare('generate', { prompt: 'warm up', n: 2 })).message?.includes(PRICE) ? true : undefined,
    );
  });
  beforeEach(() => control('reset'));
  after(async () => {
    for (const f of made) await fs.rm(f, { force: true, recursive: true });
    await (await keyStore()).clear();
  });

  it('both tools are in vscode.lm.tools with their input schemas', () => {
    for (const name of [GENERATE, EDIT]) {
      const t = vscode.lm.tools.find((x) => x.name === name);
      assert.ok(t, name);
      assert.ok(t.tags.includes('billed'));
    }
  });

  it('#generateImage: the approval names the price, our question too; one request, both images saved and counted', async () => {
    const before = (await accountState()).images;
    const shown = await prepare('generate', { prompt: 'two red kites', n: 2 });
    assert.equal(shown.title, 'Generate 2 images with gpt-image-1?');
    assert.ok(shown.message?.includes(`Price: ${PRICE}`), shown.message);
    await answerDialogs(['accept']);
    const text = await invoke(GENERATE, { prompt: 'two red kites', n: 2 });
    assert.match(
      text,
      /^Saved 2 image\(s\) to: images\/two-red-kites-[0-9a-f]{8}\.png, images\/two-red-kites-[0-9a-f]{8}\.png\. Estimated price: \$0\.08\.$/,
    );
    const asked = await dialogs();
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /Another agent asks to spend money: Generate 2 images with gpt-image-1/);
    assert.ok(asked[0]!.detail?.includes(PRICE), asked[0]!.detail);
    assert.equal((await counts())['POST /v1/images/generations'], 1);
    for (const rel of text.match(/images\/[^,. ]+\.png/g) ?? []) {
      const file = path.join(root(), rel);
      made.push(file, file.replace(/\.png$/, '.json'));
      assert.equal((await fs.readFile(file)).subarray(1, 4).toString(), 'PNG');
    }
    await waitFor('the ledger to count both images as kind image', async () =>
      (await accountState()).images === before + 2 ? true : undefined,
    );
  });

  it("agents' images count against gatewayStudio.spend.agentAllowance, the daily sum videos use: within it no question, past it asked", async () => {
    // Far above whatever agents spent today (the video tests count in the same sum): not asked.
    await setSetting('spend.agentAllowance', 1000);
    try {
      await answerDialogs(['decline']);
      const text = await invoke(GENERATE, { prompt: 'an allowed kite', n: 2 });
      assert.match(text, /^Saved 2 image\(s\) to: /);
      for (const rel of text.match(/images\/[^,. ]+\.png/g) ?? [])
        made.push(path.join(root(), rel), path.join(root(), rel.replace(/\.png$/, '.json')));
      assert.equal((await dialogs()).length, 0, 'within the allowance: not asked');
      // Those two images ($0.08) were counted: two more do not fit in $0.12.
      await setSetting('spend.agentAllowance', 0.12);
      await answerDialogs(['decline']);
      assert.match(await invoke(GENERATE, { prompt: 'a kite too many', n: 2 }), /declined it at its price/);
      const shown = await dialogs();
      assert.equal(shown.length, 1);
      assert.ok(shown[0]!.detail?.includes(PRICE), shown[0]!.detail);
      assert.match(shown[0]!.detail ?? '', /beyond what agents may spend today without asking/);
      assert.equal((await counts())['POST /v1/images/generations'], 1, 'the declined one was not sent');
    } finally {
      await setSetting('spend.agentAllowance', undefined);
    }
  });

  it('#editImage edits a workspace image with a mask of its size; the original is untouched', async () => {
    const dir = path.join(root(), 'img-tool-test');
    made.push(dir);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'logo.png'), makePng(40, 30));
    await fs.writeFile(path.join(dir, 'mask.png'), makePng(40, 30, [0, 0, 0]));
    await answerDialogs(['accept']);
    const text = await invoke(EDIT, {
      image: 'img-tool-test/logo.png',
      mask: 'img-tool-test/mask.png',
      prompt: 'make the background dark',
    });
    assert.match(text, /^Edited image saved to: images\/make-the-background-dark-[0-9a-f]{8}\.png\./);
    const saved = path.join(root(), text.match(/images\/[^,. ]+\.png/)![0]);
    made.push(saved, saved.replace(/\.png$/, '.json'));
    const side = JSON.parse(await fs.readFile(saved.replace(/\.png$/, '.json'), 'utf8')) as { inputs: string[] };
    assert.deepEqual(side.inputs, ['img-tool-test/logo.png', 'img-tool-test/mask.png']);
    assert.deepEqual(await fs.readFile(path.join(dir, 'logo.png')), makePng(40, 30));
    assert.equal((await counts())['POST /v1/images/edits'], 1);
  });

  it('refusals send nothing and ask nothing: n over the limit, a file outside the workspace, a mask of another size', async () => {
    const outside = path.join(os.tmpdir(), `gws-outside-${process.pid}.png`);
    await fs.writeFile(outside, makePng(8, 8));
    made.push(outside);
    await answerDialogs([]);
    assert.match(
      await invoke(GENERATE, { prompt: 'x', n: 11 }),
      /n-max \(n\): .*at most 10 images per request; 11 asked/,
    );
    assert.match(
      await invoke(EDIT, { image: outside, prompt: 'x' }),
      /image-file \(image\): image ".*" is outside the workspace/,
    );
    assert.match(await invoke(EDIT, { image: '../secret.png', prompt: 'x' }), /is outside the workspace/);
    const dir = path.join(root(), 'img-tool-test');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'a.png'), makePng(40, 30));
    await fs.writeFile(path.join(dir, 'm.png'), makePng(10, 10));
    assert.match(
      await invoke(EDIT, { image: 'img-tool-test/a.png', mask: 'img-tool-test/m.png', prompt: 'x' }),
      /mask-check \(mask\): .*10x10 but the image a\.png is 40x30/,
    );
    assert.deepEqual(await dialogs(), []);
    const c = await counts();
    assert.equal((c['POST /v1/images/generations'] ?? 0) + (c['POST /v1/images/edits'] ?? 0), 0);
  });

  it('declining our own price question sends nothing', async () => {
    await answerDialogs(['decline']);
    assert.match(
      await invoke(GENERATE, { prompt: 'a declined comet' }),
      /declined it at its price\. Nothing was sent or billed/,
    );
    assert.equal((await counts())['POST /v1/images/generations'] ?? 0, 0);
  });

  it('a workspace that points the images folder outside gets nothing written there, and nothing is sent', async () => {
    await writeWorkspaceSettings({ 'gatewayStudio.images.outputFolder': '../escape' });
    try {
      await answerDialogs(['accept']);
      const text = await invoke(GENERATE, { prompt: 'a hostile folder' });
      assert.match(text, /not sent: .*gatewayStudio\.images\.outputFolder.*points outside the workspace/);
      assert.equal((await counts())['POST /v1/images/generations'] ?? 0, 0);
    } finally {
      await writeWorkspaceSettings(undefined);
    }
  });
});
