/**
 * "Generate Commit Message": the staged diff (or the working tree's) and the last subjects go to
 * the utility model through the gateway client, and the answer streams into the repository's
 * input box. It only fills the box: committing stays the user's act. A second click on the same
 * repository while it streams stops it and puts back what the box held.
 */
import * as vscode from 'vscode';
import type { GatewayClient, ModelRecord } from '../../../api/client';
import { isGatewayError } from '../../../api/transport/errors';
import { resolveLimits } from '../../../api/models/modelLimits';
import { readOverflow } from '../../../api/chat/overflow';
import { effectiveModel } from '../../../shared/model';
import { getGatewayClient, showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { readSettings, type Settings } from '../../../platform/settings';
import { CommitMessageStream } from '../core/clean';
import { buildCommitRequest } from '../core/request';
import { gitApi, pickRepository, recentSubjects, untrackedPaths, type GitRepository } from './git';

/** What a run did; the command returns it (the integration tests read it). */
export interface CommitMessageResult {
  outcome: 'written' | 'noRepository' | 'nothingChanged' | 'noModel' | 'empty' | 'stopped' | 'failed';
  /** The message put in the input box. */
  message?: string;
  /** The one line shown to the user, for the outcomes that show one. */
  line?: string;
  model?: string;
  /** Files described by a summary line instead of their diff. */
  summarised?: string[];
  /** Secret files whose diff was not sent (only their names). */
  secretLeftOut?: string[];
}

/** Runs in progress, by repository root: a second click stops the first. */
const running = new Map<string, AbortController>();
/** The model list per client (a client is rebuilt when the address or key changes). */
const modelLists = new WeakMap<GatewayClient, { at: number; list: Promise<ModelRecord[]> }>();
const MODEL_LIST_TTL_MS = 10 * 60_000;

function tell(line: string, outcome: CommitMessageResult['outcome']): CommitMessageResult {
  void vscode.window.showInformationMessage(line);
  return { outcome, line };
}

function noGitLine(problem: 'missing' | 'disabled'): string {
  return problem === 'disabled'
    ? vscode.l10n.t('Git is turned off (git.enabled), so there is no repository to write a commit message for.')
    : vscode.l10n.t(
        'The built-in Git extension is not available, so there is no repository to write a commit message for.',
      );
}

/** The command: finds the repository, then writes (or stops writing) its message. */
export async function generateCommitMessage(s: Services, arg?: unknown): Promise<CommitMessageResult> {
  const found = await gitApi();
  if ('problem' in found) return tell(noGitLine(found.problem), 'noRepository');
  const repo = pickRepository(found.api, arg);
  if (!repo)
    return tell(
      vscode.l10n.t('No Git repository is open: open a folder under Git to generate a commit message.'),
      'noRepository',
    );
  const key = repo.rootUri.toString();
  const inFlight = running.get(key);
  if (inFlight) {
    inFlight.abort();
    return { outcome: 'stopped' };
  }
  const controller = new AbortController();
  running.set(key, controller);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.SourceControl, title: vscode.l10n.t('Generating a commit message…') },
      () => write(s, repo, controller.signal, arg),
    );
  } finally {
    if (running.get(key) === controller) running.delete(key);
  }
}

/** The model's record from `/v1/models`, for its window; undefined when the list cannot be had. */
async function modelRecord(s: Services, client: GatewayClient, model: string): Promise<ModelRecord | undefined> {
  let cached = modelLists.get(client);
  if (!cached || Date.now() - cached.at > MODEL_LIST_TTL_MS) {
    cached = { at: Date.now(), list: client.listModels() };
    modelLists.set(client, cached);
  }
  try {
    return (await cached.list).find((m) => m.id === model);
  } catch (e) {
    modelLists.delete(client);
    // The window then comes from the overrides or the default; the chat call reports real trouble.
    s.log.warn(`commit message: the model list failed (${e instanceof Error ? e.message : String(e)})`);
    return undefined;
  }
}

/** The staged diff, else the working tree's diff and the untracked names, after a fresh status. */
async function readChanges(repo: GitRepository): Promise<{ staged: boolean; diff: string; untracked: string[] }> {
  await repo.status();
  const staged = repo.state.indexChanges.length > 0;
  return { staged, diff: await repo.diff(staged), untracked: staged ? [] : untrackedPaths(repo) };
}

async function write(
  s: Services,
  repo: GitRepository,
  signal: AbortSignal,
  arg: unknown,
): Promise<CommitMessageResult> {
  let changes: { staged: boolean; diff: string; untracked: string[] };
  try {
    changes = await readChanges(repo);
  } catch (e) {
    // Git itself failed (a broken repository, a lock): its words, with Show Log.
    const d = showGatewayError(s, e);
    return { outcome: 'failed', line: `${d.title}. ${d.detail}` };
  }
  const { staged, diff, untracked } = changes;
  if (diff.trim() === '' && untracked.length === 0)
    return tell(
      vscode.l10n.t('Nothing to describe: the repository has no staged or unstaged changes.'),
      'nothingChanged',
    );
  const settings = readSettings();
  const model = effectiveModel(settings.utilityModel, settings.chatModel);
  if (model === '') {
    const line = vscode.l10n.t(
      'No model for commit messages: set gatewayStudio.utilityModel or gatewayStudio.chatModel.',
    );
    const open = vscode.l10n.t('Open Settings');
    void vscode.window.showWarningMessage(line, open).then((picked) => {
      if (picked === open)
        void vscode.commands.executeCommand('workbench.action.openSettings', 'gatewayStudio.utilityModel');
    });
    return { outcome: 'noModel', line };
  }
  const previous = repo.inputBox.value;
  try {
    const client = await getGatewayClient(s);
    const subjects = await recentSubjects(repo);
    const ask = (learned?: number) =>
      ask1(s, client, repo, settings, { model, diff, staged, untracked, subjects }, signal, learned);
    let result: CommitMessageResult;
    try {
      result = await ask();
    } catch (e) {
      // A window smaller than the record said: the server's own figure, then once more.
      const window = readOverflow(e)?.window;
      if (window === undefined || signal.aborted) throw e;
      s.log.warn(`commit message: ${model} holds ${window} tokens; asking again with the diff reduced to that`);
      result = await ask(window);
    }
    if (result.outcome !== 'written') repo.inputBox.value = previous;
    return result;
  } catch (e) {
    repo.inputBox.value = previous;
    if (signal.aborted || isGatewayError(e, 'aborted')) return { outcome: 'stopped' };
    const d = showGatewayError(s, e, () => vscode.commands.executeCommand('gatewayStudio.generateCommitMessage', arg));
    return { outcome: 'failed', line: `${d.title}. ${d.detail}`, model };
  }
}

interface Asked {
  model: string;
  diff: string;
  staged: boolean;
  untracked: string[];
  subjects: string[];
}

/** One request: built for the model's window, streamed into the input box, cleaned at the end. */
async function ask1(
  s: Services,
  client: GatewayClient,
  repo: GitRepository,
  settings: Settings,
  a: Asked,
  signal: AbortSignal,
  learned?: number,
): Promise<CommitMessageResult> {
  const limits = resolveLimits({
    record: await modelRecord(s, client, a.model),
    override: settings.modelOverrides[a.model],
    ...(learned !== undefined ? { learned } : {}),
  });
  const built = buildCommitRequest({ ...a, window: limits.window, maxOutput: limits.maxOutput });
  const reduced = [...built.summarised, ...built.omitted];
  s.log.info(
    `commit message: ${built.files.length} files (${a.staged ? 'staged' : 'working tree'}), ${a.untracked.length} untracked, ${a.subjects.length} subjects, model ${a.model}, window ${limits.window} (${limits.source})${reduced.length ? `; summarised: ${reduced.join(', ')}` : ''}${built.secret.length ? `; secret files left out: ${built.secret.join(', ')}` : ''}`,
  );
  const stream = new CommitMessageStream();
  const answer = await client.streamChat(built.request, {
    signal,
    onEvent: (e) => {
      if (e.type !== 'text') return;
      const shown = stream.push(e.text);
      if (shown !== undefined) repo.inputBox.value = shown;
    },
  });
  const message = stream.finish(answer.message.content ?? '');
  if (message === '')
    return tell(vscode.l10n.t('The model answered without a commit message; nothing was changed.'), 'empty');
  repo.inputBox.value = message;
  if (reduced.length > 0) {
    const names = reduced.length > 5 ? `${reduced.slice(0, 5).join(', ')}, …` : reduced.join(', ');
    vscode.window.setStatusBarMessage(
      vscode.l10n.t(
        'Commit message written from a summary of {0} files too large to send whole: {1}',
        reduced.length,
        names,
      ),
      15_000,
    );
  }
  return { outcome: 'written', message, model: a.model, summarised: reduced, secretLeftOut: built.secret };
}
