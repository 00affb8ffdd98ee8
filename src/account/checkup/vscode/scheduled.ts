/**
 * The optional check-up schedule, run unattended: the entries of `gatewayStudio.checkup.schedule`
 * (the user's own settings; a workspace's, a folder's or a remote machine's value is ignored, as
 * for every setting that spends money) that are due, one after another, without the window probe
 * and stopped at the estimate the command shows plus 20%. A profile without balance, a model
 * without a price or an entry that names nothing is skipped, and the user told once a session.
 * Loaded on first use: the account feature imports it only when the user set a schedule.
 */
import * as vscode from 'vscode';
import { getGatewayClient } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { userValue } from '../../../platform/userSettings';
import { estimateCheckup, type CheckupPlan } from '../core/runCheckup';
import { balanceSkip, isDue, parseSchedule, scheduledBound, type ScheduleEntry } from '../core/schedule';
import { checkupHistory, keepReport, openReport, runWithProgress, type CheckupAccount } from './checkupCommand';

export const SCHEDULE_SETTING = 'checkup.schedule';

/** What was said this session (each skip and each bad entry once). */
const told = new Set<string>();
let running = false;

function tellOnce(s: Services, key: string, text: string): void {
  if (told.has(key)) return;
  told.add(key);
  s.log.warn(`Check-up schedule: ${text}`);
  void vscode.window.showWarningMessage(text);
}

/** Runs the due entries; returns what each did, for the log and the tests. */
export async function runScheduledCheckups(s: Services, acc: CheckupAccount, now = Date.now()): Promise<string[]> {
  if (running) return [];
  running = true;
  try {
    const { entries, errors } = parseSchedule(userValue(SCHEDULE_SETTING));
    for (const e of errors) tellOnce(s, `error\n${e}`, e);
    const done: string[] = [];
    for (const e of entries) done.push(await runEntry(s, acc, e, now));
    return done;
  } finally {
    running = false;
  }
}

async function runEntry(s: Services, acc: CheckupAccount, e: ScheduleEntry, now: number): Promise<string> {
  const profile = s.profiles
    .list()
    .profiles.find((p) => !p.problems?.length && (p.id === e.profile || p.name === e.profile));
  const key = `${e.profile}\n${e.model}`;
  if (!profile) {
    tellOnce(
      s,
      `profile\n${key}`,
      vscode.l10n.t('Scheduled check-up skipped: there is no usable profile "{0}".', e.profile),
    );
    return 'no-profile';
  }
  if (!isDue(e, profile.name, checkupHistory(s), now)) return 'not-due';
  const a = await acc.account(profile.id, e.model);
  const noBalance = balanceSkip(a.balance);
  if (noBalance) {
    tellOnce(
      s,
      `balance\n${profile.id}`,
      vscode.l10n.t('Scheduled check-ups of profile {0} are skipped: {1}.', profile.name, noBalance),
    );
    return 'no-balance';
  }
  const plan: CheckupPlan = {
    model: e.model,
    allowWindow: false,
    ...(a.price ? { price: a.price } : {}),
    ...(a.failedVideo ? { failedVideo: a.failedVideo } : {}),
  };
  const bound = scheduledBound(estimateCheckup(plan));
  if (bound === undefined) {
    tellOnce(
      s,
      `price\n${key}`,
      vscode.l10n.t(
        'Scheduled check-up of {0} on {1} skipped: the relay advertises no price for it, so its cost has no bound.',
        e.model,
        profile.name,
      ),
    );
    return 'no-price';
  }
  const client = await getGatewayClient(s, 'chat', profile.id);
  const report = await runWithProgress(s, client, a, plan, profile, e.model, { maxQuota: bound });
  const text = await keepReport(s, report, a.unit);
  const problems = report.probes.filter((p) => p.verdict === 'problem').length;
  if (problems) {
    const show = vscode.l10n.t('Show Report');
    // Not awaited: a notice left unanswered must not hold the next entries.
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t('Scheduled check-up of {0} on {1}: {2} problem(s) found.', e.model, profile.name, problems),
        show,
      )
      .then((pick) => (pick === show ? openReport(report, text) : undefined));
  }
  return report.stopped ? 'stopped' : 'ran';
}
