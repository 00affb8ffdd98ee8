// The relay check-up (issue 41) in the real host against the local gateway's check-up models: the
// cost question comes before any request (answered through the test seam), the report names the
// substitution with its evidence and its cost, the ledger counts that cost, and the estimate is
// within 20% of it. A repository cannot steer it: a workspace's baseUrl is not the profile's
// (user-only), and the report's text stays text. A failed clip the relay charged is named in the bill.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AccountDebugState } from '../../src/account/vscode/debugState';
import type { CheckupReport } from '../../src/account/checkup/core/types';
import type { Services } from '../../src/platform/services';
import type { VideoDebugState } from '../../src/video/vscode/testCommands';
import { startCollector } from './collector';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

const debugState = () => vscode.commands.executeCommand<AccountDebugState>('gatewayStudio.spend.debugState');
type Seen = { questions: string[]; last?: { report: CheckupReport; markdown: string } };
const seam = (answers?: string[]) =>
  vscode.commands.executeCommand<Seen | undefined>('gatewayStudio.checkup.test', answers);
const used = async (): Promise<number> =>
  ((await (await fetch(`${gateway.url}/__control/account`)).json()) as { used: number }).used;

async function checkUp(model: string, answers: string[]): Promise<Seen> {
  await seam(answers);
  await vscode.commands.executeCommand('gatewayStudio.checkUpRelay', { profile: 'default', models: [model] });
  return (await seam())!;
}

describe('relay check-up', () => {
  before(async () => {
    await extension();
    await setSetting('baseUrl', gateway.url);
    await waitFor('the check-up command', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.checkup.test'),
    );
  });
  beforeEach(async () => {
    await control('reset');
    await control('checkup', { enabled: true });
    await (await keyStore()).set(gateway.validKey);
  });
  afterEach(async () => {
    await control('checkup', { enabled: false });
    await control('reset');
    await (await keyStore()).clear();
  });

  it('asks with the cost first, and a "no" sends nothing', async () => {
    const before = await used();
    const seen = await checkUp('gpt-4o-honest', ['no']);
    assert.equal(seen.questions.length, 1);
    assert.match(seen.questions[0]!, /Every probe is a paid request[\s\S]*Without the window probe: 15 requests/);
    assert.match(seen.questions[0]!, /With the window probe \(8192 tokens claimed\)/);
    assert.equal(seen.last, undefined);
    assert.equal(await used(), before, 'no request was billed');
  });

  it('the honest model: nothing wrong; the substituting one: named, with evidence and cost, counted in the ledger', async () => {
    const honest = (await checkUp('gpt-4o-honest', ['run'])).last!;
    assert.deepEqual(
      honest.report.probes.filter((p) => !['ok', 'skipped'].includes(p.verdict)).map((p) => p.summary),
      [],
    );
    const ledgerBefore = (await debugState()).todayQuota ?? 0;
    const gwBefore = await used();
    const swap = (await checkUp('gpt-4o-swap', ['run'])).last!;
    const t = swap.report.probes.find((p) => p.probe === 'tokenizer')!;
    assert.equal(t.verdict, 'problem');
    assert.match(swap.markdown, /\*\*Problem\*\* \| The counts match cl100k/);
    assert.match(swap.markdown, /Relay, tokens beyond the baseline\\: 20, 21, 49/);
    const logged = (await used()) - gwBefore;
    assert.equal(swap.report.spent.quota, logged, 'the report shows what the relay billed');
    await waitFor('the ledger to count the check-up', async () =>
      ((await debugState()).todayQuota ?? 0) - ledgerBefore === logged ? true : undefined,
    );
    const est = swap.report.estimate.quota!;
    assert.ok(Math.abs(est - logged) <= logged * 0.2, `estimate ${est} vs ledger ${logged}`);
    // The report is open beside its preview.
    assert.ok(vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && d.getText() === swap.markdown));
  });

  it("the usage view's button checks up the active profile, asking the cost first", async () => {
    const s = (await extension()).exports as Services;
    const active = s.profiles.list().profiles.find((p) => p.id === s.profiles.activeId())!;
    await vscode.commands.executeCommand('gatewayStudio.spend.showUsage');
    const before = await used();
    await seam(['no']);
    await vscode.commands.executeCommand('gatewayStudio.spend.checkUpActiveProfile', { models: ['gpt-4o-honest'] });
    const seen = (await seam())!;
    assert.equal(seen.questions.length, 1);
    assert.ok(seen.questions[0]!.startsWith(`Check up gpt-4o-honest on ${active.name}?`), seen.questions[0]);
    assert.equal(await used(), before, 'a "no" sends nothing');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a repository that points the gateway address elsewhere gets no probe and no key, and the user is asked', async () => {
    const s = (await extension()).exports as Services;
    const original = s.origins.prompt;
    const collector = await startCollector();
    const asked: string[] = [];
    s.origins.prompt = (origin) => {
      asked.push(origin);
      return Promise.resolve('refuse');
    };
    const config = vscode.workspace.getConfiguration('gatewayStudio');
    try {
      await s.origins.forget();
      await config.update('baseUrl', collector.url, vscode.ConfigurationTarget.Workspace);
      await waitFor('the workspace value', () => (config.inspect('baseUrl')?.workspaceValue ? true : undefined));
      const before = await used();
      const seen = await checkUp('gpt-4o-honest', ['run']);
      assert.deepEqual(asked, [new URL(collector.url).origin], 'the user was asked about the repository address');
      assert.deepEqual(collector.seen, [], 'the repository server got a request');
      assert.equal(seen.last, undefined, 'no report: nothing was probed');
      assert.equal(await used(), before);
    } finally {
      s.origins.prompt = original;
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
      await s.origins.forget();
      collector.server.close();
    }
  });

  // Last: the ledger keeps the failed clip, so every later check-up of this relay names it.
  it('a failed video task the relay still charged is named in the bill, from the ledger', async () => {
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
    try {
      const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
        prompt: 'a storm #fail',
        model: 'vendor-image-video',
        seconds: 4,
        resolution: '720p',
      });
      assert.ok(key, 'the clip was submitted');
      await waitFor(
        'the failed clip to be flagged as charged',
        async () => {
          const v = await vscode.commands.executeCommand<VideoDebugState>('gatewayStudio.video.debugState');
          return v.costs[key]?.failedCharged === true ? true : undefined;
        },
        60_000,
      );
      const seen = await checkUp('gpt-4o-honest', ['run']);
      const bill = seen.last!.report.probes.find((p) => p.probe === 'bill')!;
      assert.equal(bill.verdict, 'problem');
      assert.match(bill.summary, /Failed video tasks still charged: 1 \(\$0\.\d+; vendor-image-video\)/);
      assert.match(seen.last!.markdown, /Failed video tasks still charged/);
      assert.equal(bill.figures.failedVideoTasks, 1);
    } finally {
      await setSetting('videoBaseUrl', undefined);
      await setSetting('video.pollIntervalSeconds', undefined);
    }
  });
});
