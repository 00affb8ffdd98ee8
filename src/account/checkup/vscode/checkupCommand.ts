/**
 * **Check Up Relay**: for a profile and one or more of its models, shows what the check-up will
 * cost, runs it with a cancellable progress (a stop keeps what was spent), and opens the report
 * as Markdown with its preview. Loaded on first use (registerAccount imports it when the command
 * runs). Requests go through the profile's own client, so the ledger counts them like any answer.
 */
import * as vscode from 'vscode';
import type { AccountTransport } from '../../../api/account/transport';
import type { Usage } from '../../../api/chat/wire';
import { reportedCostIn } from '../../../api/chat/gatewayCost';
import { readModelLimits } from '../../../api/models/modelLimits';
import { checkupHistoryKey, type StoredCheckup } from '../../../contracts/persistedState/checkup';
import { getGatewayClient } from '../../../platform/gateway';
import { persistedState } from '../../../platform/persistedState';
import type { Services } from '../../../platform/services';
import { formatQuota, type MoneyUnit } from '../../balance/core/money';
import type { ModelPrice } from '../../pricing/core/pricing';
import { quotaOfDollars } from '../../spend/core/answerPrice';
import type { FailedVideo } from '../core/bill';
import { historyEntry, renderReport, type HistoryEntry } from '../core/report';
import { estimateCheckup, runCheckup, type CheckupPlan, type CheckupPort } from '../core/runCheckup';
import type { CheckupReport, Spent } from '../core/types';

/** What the account feature lends the check-up: the profile's account (its unit, prices, log). */
export interface CheckupAccount {
  account(
    profileId: string,
    model: string,
  ): Promise<{
    price?: ModelPrice;
    unit: MoneyUnit;
    transport: AccountTransport;
    failedVideo?: FailedVideo;
    /** The balance last read (for the schedule, which skips a profile without one). */
    balance: { status: 'unknown' | 'ok' | 'unavailable' | 'none'; quota?: number; unlimited?: boolean };
  }>;
}

/** Optional arguments (from a test or a keybinding): they pick, they never skip the cost question. */
export interface CheckupArgs {
  profile?: string;
  models?: string[];
}

const HISTORY_MAX = 200;

/**
 * The host tests' seam (set only by testCommand.ts, registered in test builds): the next answers
 * of the cost question instead of the modal, and the last report shown.
 */
export const checkupTestHook: {
  answers?: Array<'run' | 'window' | 'no'>;
  questions: string[];
  last?: { report: CheckupReport; markdown: string };
} = { questions: [] };

export async function checkUpRelay(s: Services, acc: CheckupAccount, args: CheckupArgs = {}): Promise<void> {
  try {
    await checkUp(s, acc, args);
  } catch (e) {
    // A refused gateway origin, no key, an unreadable account: one line that says which.
    const why = e instanceof Error ? e.message : String(e);
    s.log.warn(`Check-up: ${why}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Check-up: {0}', why));
  }
}

async function checkUp(s: Services, acc: CheckupAccount, args: CheckupArgs): Promise<void> {
  const profile = await pickProfile(s, args.profile);
  if (!profile) return;
  const client = await getGatewayClient(s, 'chat', profile.id);
  const records = await client.listModels().catch((e: unknown) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Check-up: the model list could not be read: {0}', String(e)));
    return undefined;
  });
  if (!records) return;
  const models = await pickModels(
    records.map((r) => r.id),
    args.models,
  );
  for (const model of models ?? []) {
    const a = await acc.account(profile.id, model);
    const claimed = readModelLimits(records.find((r) => r.id === model)).window;
    const plan = await confirmPlan(model, profile.name, a, claimed);
    if (!plan) continue;
    const report = await runWithProgress(s, client, a, plan, profile, model);
    await showReport(s, report, a.unit);
  }
}

async function pickProfile(s: Services, wanted?: string): Promise<{ id: string; name: string } | undefined> {
  const list = s.profiles.list().profiles.filter((p) => !p.problems?.length);
  if (wanted) {
    const p = list.find((x) => x.id === wanted);
    if (!p) void vscode.window.showErrorMessage(vscode.l10n.t('Check-up: there is no usable profile "{0}".', wanted));
    return p;
  }
  if (list.length === 1) return list[0];
  const pick = await vscode.window.showQuickPick(
    list.map((p) => ({ label: p.name, id: p.id })),
    { title: vscode.l10n.t('Check Up Relay: which profile?') },
  );
  return pick && list.find((p) => p.id === pick.id);
}

async function pickModels(ids: string[], wanted?: string[]): Promise<string[] | undefined> {
  if (wanted?.length) {
    const unknown = wanted.filter((m) => !ids.includes(m));
    if (unknown.length)
      void vscode.window.showErrorMessage(vscode.l10n.t('Check-up: the relay lists no model {0}.', unknown.join(', ')));
    return wanted.filter((m) => ids.includes(m));
  }
  const picks = await vscode.window.showQuickPick(
    ids.map((label) => ({ label })),
    { title: vscode.l10n.t('Check Up Relay: which models?'), canPickMany: true },
  );
  return picks?.map((p) => p.label);
}

function spentText(s: Spent, unit: MoneyUnit): string {
  const money =
    s.quota !== undefined ? formatQuota(s.quota, unit, { precise: true }) : vscode.l10n.t('unknown (no price)');
  return vscode.l10n.t(
    '{0} requests, about {1} tokens, about {2}',
    s.requests,
    s.promptTokens + s.completionTokens,
    money,
  );
}

/** The cost question, before any request: with the window probe (its own cost named) or without. */
async function confirmPlan(
  model: string,
  profile: string,
  a: { price?: ModelPrice; unit: MoneyUnit; failedVideo?: FailedVideo },
  claimed: number | undefined,
): Promise<CheckupPlan | undefined> {
  const base: CheckupPlan = {
    model,
    allowWindow: false,
    ...(a.price ? { price: a.price } : {}),
    ...(a.failedVideo ? { failedVideo: a.failedVideo } : {}),
    ...(claimed ? { window: claimed } : {}),
  };
  const plain = estimateCheckup(base);
  const run = vscode.l10n.t('Run Check-up');
  const withWindow = vscode.l10n.t('Run with Window Probe');
  const choices = [run];
  let detail = vscode.l10n.t('Without the window probe: {0}.', spentText(plain, a.unit));
  if (claimed) {
    const full = estimateCheckup({ ...base, allowWindow: true });
    detail +=
      '\n' + vscode.l10n.t('With the window probe ({0} tokens claimed): {1}.', claimed, spentText(full, a.unit));
    choices.push(withWindow);
  }
  const question = vscode.l10n.t('Check up {0} on {1}? Every probe is a paid request.', model, profile);
  const answer = checkupTestHook.answers
    ? testAnswer(question, detail, [undefined, run, withWindow])
    : await vscode.window.showWarningMessage(question, { modal: true, detail }, ...choices);
  if (!answer) return undefined;
  return { ...base, allowWindow: answer === withWindow };
}

function testAnswer(question: string, detail: string, words: Array<string | undefined>): string | undefined {
  checkupTestHook.questions.push(`${question}\n${detail}`);
  const a = checkupTestHook.answers?.shift() ?? 'no';
  return words[['no', 'run', 'window'].indexOf(a)];
}

/** Runs the probes with a progress; a scheduled run shows it in the status bar and stops at `maxQuota`. */
export async function runWithProgress(
  s: Services,
  client: Awaited<ReturnType<typeof getGatewayClient>>,
  a: { unit: MoneyUnit; transport: AccountTransport },
  plan: CheckupPlan,
  profile: { name: string },
  model: string,
  scheduled?: { maxQuota: number },
): Promise<CheckupReport> {
  const port: CheckupPort = {
    chat: (req, signal) => client.chat(req, signal),
    streamChat: (req, o) => client.streamChat(req, o),
    billingLog: async (signal) => {
      const f = await a.transport.get('/api/log/token', signal);
      return f.kind === 'json' ? { body: f.body } : { why: f.why };
    },
    reportedQuota: (u: Usage | undefined) => {
      const r = reportedCostIn(u);
      return r ? quotaOfDollars(r.usd, a.unit) : undefined;
    },
    now: () => Date.now(),
  };
  const startedAt = Date.now();
  const run = await vscode.window.withProgress(
    {
      location: scheduled ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Checking up {0}', model),
      cancellable: !scheduled,
    },
    async (progress, token) => {
      const stop = new AbortController();
      token.onCancellationRequested(() => stop.abort());
      return runCheckup(port, plan, {
        signal: stop.signal,
        ...(scheduled ? { maxQuota: scheduled.maxQuota } : {}),
        onProbe: (r) => progress.report({ message: r.summary, increment: 20 }),
      });
    },
  );
  s.log.info(`Check-up of ${model}: ${run.probes.map((p) => `${p.probe} ${p.verdict}`).join(', ')}`);
  return {
    profile: profile.name,
    gateway: client.http.baseUrl,
    model,
    startedAt,
    endedAt: Date.now(),
    stopped: run.stopped,
    estimate: estimateCheckup(plan),
    spent: run.spent,
    probes: run.probes,
  };
}

/** The stored history (figures only), oldest first. */
export function checkupHistory(s: Services): HistoryEntry[] {
  // The store checked each entry's shape; its figures are what this module wrote.
  return persistedState(s.context).get(checkupHistoryKey) as unknown as HistoryEntry[];
}

/** Keeps the report's figures in the history and returns its Markdown with the chart over time. */
export async function keepReport(s: Services, report: CheckupReport, unit: MoneyUnit): Promise<string> {
  const all = checkupHistory(s);
  all.push(historyEntry(report));
  await persistedState(s.context).set(checkupHistoryKey, all.slice(-HISTORY_MAX) as unknown as StoredCheckup[]);
  const mine = all.filter((h) => h.profile === report.profile && h.model === report.model);
  return renderReport(
    report,
    { money: (q) => (q === undefined ? '?' : formatQuota(q, unit, { precise: true })) },
    mine,
  );
}

async function showReport(s: Services, report: CheckupReport, unit: MoneyUnit): Promise<void> {
  await openReport(report, await keepReport(s, report, unit));
}

/** Opens a report's Markdown beside its preview. */
export async function openReport(report: CheckupReport, text: string): Promise<void> {
  checkupTestHook.last = { report, markdown: text };
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('markdown.showPreviewToSide', doc.uri);
}
