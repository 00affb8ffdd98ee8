// What a clip costs, in a real extension host against the local gateway: the price the tool's
// confirmation shows before the submit is what the gateway then charges; after the clip the
// balance item equals the gateway's balance; the charge is read from the gateway's log and kept
// beside the estimate; a failed task that was charged is flagged (and one that was refunded is
// not); a price above confirmAbove asks first, and declining sends nothing; a workspace's
// settings.json cannot lower that guard or the prices.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatQuota, unitFromStatus } from '../../src/account/balance/core/money';
import type { AccountDebugState } from '../../src/account/vscode/debugState';
import type { VideoDebugState } from '../../src/video/vscode/testCommands';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

const CNY = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 8 });
const PRICE_LINE = 'about ¥0.80: 4 s, 720p, vendor-image-video';
const REQUEST = { model: 'vendor-image-video', seconds: 4, resolution: '720p' };

const videoState = () => vscode.commands.executeCommand<VideoDebugState>('gatewayStudio.video.debugState');
const accountState = () => vscode.commands.executeCommand<AccountDebugState>('gatewayStudio.spend.debugState');
const prepared = async (prompt: string) =>
  (
    await vscode.commands.executeCommand<{ message?: string }>('gatewayStudio.video.debugPrepareTool', {
      prompt,
      ...REQUEST,
    })
  ).message ?? '';
const generate = (prompt: string) =>
  vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', { prompt, ...REQUEST });
const gatewayAccount = async () =>
  (await (await fetch(`${gateway.url}/__control/account`)).json()) as {
    remaining: number;
    logs: Array<{ type: number; quota: number; other: string }>;
  };
type Dialog = { message: string; detail?: string };
/** Queues answers for the next price dialogs (the one thing a test cannot click). */
const answerDialogs = (answers: Array<'accept' | 'decline'>) =>
  vscode.commands.executeCommand('gatewayStudio.video.testSpendDialogs', answers);
/** The price dialogs shown since the answers were queued. */
const dialogs = () => vscode.commands.executeCommand<Dialog[]>('gatewayStudio.video.testSpendDialogs');
/** What agents spent today without being asked (dollars), as kept; `clear` starts the day again. */
const agentSpend = (clear = false) =>
  vscode.commands.executeCommand<{ day: string; usd: number } | undefined>('gatewayStudio.video.testAgentSpend', clear);
const creations = async () => ((await control('counts')) as Record<string, number>)['POST /v1/videos/generations'] ?? 0;

async function ended(key: string): Promise<string> {
  const t = await waitFor(
    `task ${key} to end`,
    async () => {
      const r = (await videoState()).tasks.find((x) => x.key === key);
      return r && ['saved', 'failed', 'error'].includes(r.state) ? r : undefined;
    },
    60_000,
  );
  return t.state;
}

async function costOf(key: string, what: string, ok: (c: VideoDebugState['costs'][string]) => boolean) {
  let last: unknown;
  return waitFor(
    what,
    async () => {
      const c = (await videoState()).costs[key];
      last = c;
      return c && ok(c) ? c : undefined;
    },
    20_000,
  ).catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; kept: ${JSON.stringify(last)}`);
  });
}

describe('video cost', () => {
  before(async () => {
    await extension();
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
    await waitFor('the account feature', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.spend.debugState'),
    );
  });
  beforeEach(async () => {
    await control('reset');
    await control('account', { displayType: 'CNY', usdExchangeRate: 8 });
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    // The prices are read once in the background after a reading; the quote waits for nothing.
    await waitFor('a known price in the confirmation', async () =>
      (await prepared('warm up')).includes(PRICE_LINE) ? true : undefined,
    );
  });
  after(async () => {
    await setSetting('spend.confirmAbove', undefined);
    await setSetting('video.pollIntervalSeconds', undefined);
    await control('reset');
    await (await keyStore()).clear();
  });

  it('the price shown before the submit is what the gateway charges; the balance item equals the gateway', async () => {
    const message = await prepared('a lighthouse at dusk');
    assert.ok(message.includes(`Price: ${PRICE_LINE}`), message);
    const key = await generate('a lighthouse at dusk');
    assert.ok(key, 'no task was started');
    assert.equal(await ended(key), 'saved');
    const g = await gatewayAccount();
    const row = g.logs.find((l) => l.type === 2 && l.other.includes('video_svc_v1_'));
    assert.ok(row, JSON.stringify(g.logs));
    assert.equal(formatQuota(row.quota, CNY, { precise: true }), '¥0.80', 'the gateway charged the quoted figure');
    const c = await costOf(key, 'the charge beside the estimate', (x) => x.charged !== undefined);
    assert.equal(c.estimate, '¥0.80');
    assert.equal(c.charged, '¥0.80');
    assert.equal(c.source, 'log');
    assert.equal(c.flag, undefined);
    assert.equal(c.cost, "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)");
    const expected = formatQuota(g.remaining, CNY);
    let last: AccountDebugState | undefined;
    await waitFor(
      `the balance item to show ${expected}`,
      async () => {
        last = await accountState();
        return last.visible && last.figure === expected ? true : undefined;
      },
      15_000,
    ).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}; it shows ${JSON.stringify(last)}`);
    });
  });

  it('a failed task that was charged is flagged; one the gateway refunded is not', async () => {
    const key = await generate('a storm #fail');
    assert.ok(key);
    assert.equal(await ended(key), 'failed');
    const c = await costOf(key, 'the failed task to be flagged', (x) => x.failedCharged === true);
    assert.equal(c.charged, '¥0.80');
    assert.match(c.flag ?? '', /failed, yet the gateway charged ¥0\.80/);

    await control('account', { refundFailedClips: true });
    const refunded = await generate('another storm #fail');
    assert.ok(refunded);
    assert.equal(await ended(refunded), 'failed');
    const r = await costOf(refunded, 'the refunded charge', (x) => x.charged !== undefined);
    assert.equal(r.charged, '¥0.00');
    assert.equal(r.flag, undefined);
  });

  it('above confirmAbove a modal names the figure; declining sends nothing, accepting sends one', async () => {
    await setSetting('spend.confirmAbove', 0.5);
    await answerDialogs(['decline', 'accept']);
    assert.equal(await generate('an expensive comet'), undefined);
    assert.equal(await creations(), 0, 'declined: nothing was sent');
    let shown = await dialogs();
    assert.equal(shown.length, 1);
    assert.match(shown[0]!.message, /estimated at ¥0\.80, above your limit of ¥0\.50/);
    assert.ok(shown[0]!.detail?.includes(PRICE_LINE), shown[0]!.detail);
    const key = await generate('an expensive comet');
    assert.ok(key);
    assert.equal((await dialogs()).length, 2);
    await waitFor('one creation', async () => ((await creations()) === 1 ? true : undefined));

    // Below the limit nothing asks.
    await setSetting('spend.confirmAbove', 1);
    assert.ok(await generate('a cheap comet'));
    shown = await dialogs();
    assert.equal(shown.length, 2, 'no dialog below the limit');
    await waitFor('the second creation', async () => ((await creations()) === 2 ? true : undefined));
  });

  it("a tool call above confirmAbove asks once, in Gateway Studio's own question naming the price and the limit: declined, the model is told and nothing is sent", async () => {
    await setSetting('spend.confirmAbove', 0.5);
    await answerDialogs(['decline']);
    const r = await vscode.lm.invokeTool(
      'gatewayStudio_generateVideo',
      { input: { prompt: 'a tool comet', ...REQUEST }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /declined it in Gateway Studio's own confirmation, which names the price/, text);
    const shown = await dialogs();
    assert.equal(shown.length, 1);
    assert.match(shown[0]!.message, /Another agent asks to spend money: a 4 s video with vendor-image-video/);
    assert.match(shown[0]!.detail ?? '', /about ¥0\.80: 4 s, 720p, vendor-image-video \(above your limit of ¥0\.50\)/);
    assert.equal(await creations(), 0, 'nothing was sent');
  });

  it('a storyboard shot above confirmAbove asks like a single video, naming its figure: declined, it is not created', async function () {
    this.timeout(60_000);
    await setSetting('spend.confirmAbove', 0.5);
    const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'priced.storyboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        title: 'Priced',
        defaults: { model: 'vendor-image-video', resolution: '720p' },
        shots: [{ id: 'a', prompt: 'an expensive shot', seconds: 4 }],
      }),
    );
    const board = () =>
      vscode.commands.executeCommand<{
        view?: { running: boolean; shots: { status: { kind: string; text: string } }[] };
      }>('gatewayStudio.storyboard.debugState', file);
    try {
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'gatewayStudio.storyboard');
      await waitFor('the board view', async () => (await board())?.view);
      await answerDialogs(['decline']);
      // The board's own approval is given; the price question is the one declined.
      await vscode.commands.executeCommand('gatewayStudio.storyboard.testApprovals', [true]);
      await vscode.commands.executeCommand('gatewayStudio.storyboard.generate', file);
      const v = await waitFor('the shot to stop', async () => {
        const st = (await board())?.view;
        return st && !st.running && st.shots[0]?.status.kind === 'failed' ? st : undefined;
      });
      assert.match(v.shots[0]?.status.text ?? '', /declined the price/);
      const shown = await dialogs();
      assert.equal(shown.length, 1);
      assert.match(shown[0]!.message, /estimated at ¥0\.80, above your limit of ¥0\.50/);
      assert.equal(await creations(), 0, 'declined: the shot was not created');
    } finally {
      await setSetting('spend.confirmAbove', undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it("agents spend within gatewayStudio.spend.agentAllowance without our question; past today's allowance they are asked again", async () => {
    const call = async (prompt: string) => {
      const r = await vscode.lm.invokeTool(
        'gatewayStudio_generateVideo',
        { input: { prompt, ...REQUEST }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    };
    // ¥0.80 a clip: one fits in ¥1.00 a day, the second does not (other tests' spends cleared).
    await agentSpend(true);
    await setSetting('spend.agentAllowance', 1);
    try {
      await answerDialogs(['decline']);
      assert.match(await call('an allowed comet'), /Started video task/);
      assert.equal((await dialogs()).length, 0, 'within the allowance: not asked');
      // Kept in dollars: ¥0.80 at 8 yuan a dollar.
      assert.ok(Math.abs((await agentSpend())!.usd - 0.1) < 1e-9, JSON.stringify(await agentSpend()));
      assert.match(await call('a comet too many'), /declined it in Gateway Studio's own confirmation/);
      const shown = await dialogs();
      assert.equal(shown.length, 1);
      assert.match(shown[0]!.detail ?? '', /beyond what agents may spend today without asking/);
      assert.equal(await creations(), 1);
    } finally {
      await setSetting('spend.agentAllowance', undefined);
    }
  });

  it("what agents spent through a dollar gateway counts against a yuan gateway's allowance at its rate", async () => {
    const call = (prompt: string) =>
      vscode.lm.invokeTool(
        'gatewayStudio_generateVideo',
        { input: { prompt, ...REQUEST }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
    await agentSpend(true);
    await control('account', { displayType: 'USD' });
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    await waitFor('the price in dollars', async () =>
      (await prepared('in dollars')).includes('$0.10') ? true : undefined,
    );
    await setSetting('spend.agentAllowance', 1);
    try {
      await answerDialogs(['decline']);
      await call('a comet paid in dollars');
      assert.equal((await dialogs()).length, 0, '$0.10 within $1.00: not asked');
      await control('account', { displayType: 'CNY', usdExchangeRate: 8 });
      await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
      await waitFor('the price in yuan', async () =>
        (await prepared('in yuan')).includes(PRICE_LINE) ? true : undefined,
      );
      // $0.10 spent is ¥0.80 here: with ¥0.80 more, ¥1.60 is past ¥1.00. A bare sum (0.10 + 0.80) fitted.
      await answerDialogs(['decline']);
      const r = await call('a comet paid in yuan');
      const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /declined it in Gateway Studio's own confirmation/);
      assert.match((await dialogs())[0]?.detail ?? '', /beyond what agents may spend today without asking/);
      assert.equal(await creations(), 1, 'only the dollar clip was created');
    } finally {
      await setSetting('spend.agentAllowance', undefined);
    }
  });

  it('with confirmAbove set and no price known, the submit asks, saying the price is unknown', async function () {
    this.timeout(60_000);
    await control('account', { displayType: 'CNY', usdExchangeRate: 8, endpoints: { pricing: 'missing' } });
    // A change of the spend settings marks the prices stale; the next reading reads them again.
    await setSetting('spend.group', 'unpriced');
    try {
      await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
      await waitFor('the price to be unknown', async () =>
        (await prepared('no price')).includes('Price unknown') ? true : undefined,
      );
      await setSetting('spend.confirmAbove', 0.5);
      await answerDialogs(['decline', 'accept']);
      assert.equal(await generate('a comet of unknown price'), undefined);
      assert.equal(await creations(), 0, 'declined: nothing was sent');
      const shown = await dialogs();
      assert.equal(shown.length, 1);
      assert.match(shown[0]!.message, /price is unknown, so it may be above your limit of ¥0\.50/);
      assert.match(shown[0]!.detail ?? '', /Price unknown/);
      assert.ok(await generate('a comet of unknown price'), 'accepted: the task starts');
      await waitFor('one creation', async () => ((await creations()) === 1 ? true : undefined));

      // Without the limit an unknown price asks nothing.
      await setSetting('spend.confirmAbove', undefined);
      assert.ok(await generate('another comet'));
      assert.equal((await dialogs()).length, 2, 'no dialog without confirmAbove');
    } finally {
      await setSetting('spend.group', undefined);
      await setSetting('spend.confirmAbove', undefined);
    }
  });

  it("a workspace's settings.json cannot raise confirmAbove, zero the prices or turn spend off", async function () {
    this.timeout(60_000);
    await setSetting('spend.confirmAbove', 0.5);
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const file = path.join(folder, '.vscode', 'settings.json');
    const before = await fs.readFile(file, 'utf8').catch(() => undefined);
    const changed = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.spend')) {
          sub.dispose();
          resolve();
        }
      });
    });
    await fs.mkdir(path.dirname(file), { recursive: true });
    let kept: object = {};
    try {
      kept = before ? (JSON.parse(before) as object) : {};
    } catch {
      // A settings.json with comments: the test's keys alone.
    }
    const hostile = {
      ...kept,
      'gatewayStudio.spend.confirmAbove': 1_000_000,
      'gatewayStudio.spend.prices': { 'vendor-image-video': { perSecond: 0 } },
      'gatewayStudio.spend.group': 'vip',
      'gatewayStudio.spend.enabled': false,
    };
    await fs.writeFile(file, JSON.stringify(hostile, null, 2));
    try {
      await Promise.race([changed, new Promise((r) => setTimeout(r, 10_000))]);
      const c = vscode.workspace.getConfiguration('gatewayStudio');
      assert.equal(c.inspect('spend.enabled')?.workspaceValue, false, 'the workspace value is there to be ignored');
      await answerDialogs(['decline']);
      const sent = await creations();
      assert.ok((await prepared('a workspace comet')).includes(PRICE_LINE), 'the price is the gateway’s');
      assert.equal(await generate('a workspace comet'), undefined);
      assert.equal((await dialogs()).length, 1, 'the user limit still asks');
      assert.equal(await creations(), sent, 'declined: nothing was sent');
    } finally {
      if (before === undefined) await fs.rm(file, { force: true });
      else await fs.writeFile(file, before);
    }
  });
});
