import * as vscode from 'vscode';
import * as path from 'node:path';
import { showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import type { VideoRunEnd } from '../../jobs/core/job';
import type { VideoJobManager } from '../../jobs/core/manager';
import type { VideoTaskRecord } from '../../jobs/core/record';
import { canResume, formatElapsed, shortPrompt, stateLabel } from '../../jobs/core/summary';

/**
 * The keyboard way through the tasks (a quick pick, then the chosen task's actions), the
 * notifications at the end of a run, and the actions both share. The gallery is the visual way.
 */

export type TaskAction = 'open' | 'details' | 'copyId' | 'resume' | 'stop' | 'remove';

/** Command of the quick-pick task list (the status-bar item opens the gallery instead). */

export async function openVideo(file: string): Promise<void> {
  // `vscode.open` on an .mp4 opens VS Code's media preview.
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
}

export async function revealVideo(file: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  if (vscode.workspace.getWorkspaceFolder(uri)) await vscode.commands.executeCommand('revealInExplorer', uri);
  else await vscode.commands.executeCommand('revealFileInOS', uri);
}

/** Notifications at the end of a run; never awaited, so a run never waits for the user. */
export function notifyEnd(s: Services, manager: VideoJobManager, r: VideoTaskRecord, end: VideoRunEnd): void {
  const name = shortPrompt(r);
  switch (end) {
    case 'saved': {
      if (!r.file) return;
      s.log.info(`video saved: ${r.file} (${r.bytes ?? 0} bytes)`);
      const open = vscode.l10n.t('Open');
      const reveal = vscode.l10n.t('Reveal in Explorer');
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Video saved: {0}', path.basename(r.file)), open, reveal)
        .then((pick) => {
          if (pick === open) return openVideo(r.file!);
          if (pick === reveal) return revealVideo(r.file!);
          return undefined;
        });
      return;
    }
    case 'timed_out': {
      const resume = vscode.l10n.t('Resume');
      const copy = vscode.l10n.t('Copy Id');
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t(
            '"{0}" is still running on the gateway after {1} checks. It was not submitted again; its id {2} is kept, so check later with Resume or "Check Video Task".',
            name,
            r.polls,
            r.videoId ?? '',
          ),
          resume,
          copy,
        )
        .then((pick) => {
          if (pick === resume) return runAction(s, manager, r.key, 'resume');
          if (pick === copy && r.videoId) return vscode.env.clipboard.writeText(r.videoId);
          return undefined;
        });
      return;
    }
    case 'failed':
    case 'error': {
      const e = r.error;
      s.log.error(`video task ${r.videoId ?? r.key} ${end}: ${e?.title ?? ''} ${e?.detail ?? ''}`);
      const buttons: string[] = [];
      const resume = vscode.l10n.t('Resume');
      const setKey = vscode.l10n.t('Set API Key');
      const log = vscode.l10n.t('Show Log');
      if (end === 'error' && canResume(r) && e?.kind !== 'not_found') buttons.push(resume);
      if (e?.kind === 'auth') buttons.push(setKey);
      buttons.push(log);
      void vscode.window
        .showErrorMessage(`${e?.title ?? stateLabel(r)} — ${name}. ${e?.detail ?? ''}`, ...buttons)
        .then((pick) => {
          if (pick === resume) return runAction(s, manager, r.key, 'resume');
          if (pick === setKey) return vscode.commands.executeCommand('gatewayStudio.setApiKey');
          if (pick === log) s.log.show();
          return undefined;
        });
      return;
    }
    case 'paused':
      return;
  }
}

export async function runAction(s: Services, manager: VideoJobManager, key: string, action: TaskAction): Promise<void> {
  const r = manager.get(key);
  if (!r) return;
  switch (action) {
    case 'open':
      if (r.file) await openVideo(r.file);
      return;
    case 'details': {
      const doc = await vscode.workspace.openTextDocument({
        language: 'json',
        content: JSON.stringify(detailsOf(r), null, 2),
      });
      await vscode.window.showTextDocument(doc, { preview: true });
      return;
    }
    case 'copyId':
      if (r.videoId) await vscode.env.clipboard.writeText(r.videoId);
      return;
    case 'resume':
      // The end is notified by the manager; nothing to wait for here.
      void manager.resume(key).catch((err: unknown) => showGatewayError(s, err));
      return;
    case 'stop':
      await manager.pause(key);
      return;
    case 'remove':
      await manager.remove(key);
      return;
  }
}

/** The details view: everything recorded, with readable times. */
function detailsOf(r: VideoTaskRecord): Record<string, unknown> {
  return {
    prompt: r.request.prompt,
    model: r.request.model,
    id: r.videoId ?? null,
    state: r.state,
    status: stateLabel(r),
    progress: r.progress ?? null,
    parameters: {
      seconds: r.request.seconds,
      aspect_ratio: r.request.aspect_ratio,
      resolution: r.request.resolution,
      reference_images: r.request.images,
    },
    warnings: r.warnings,
    error: r.error ?? null,
    failReason: r.failReason ?? null,
    polls: r.polls,
    transientErrors: r.transientErrors,
    created: new Date(r.createdAt).toISOString(),
    finished: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
    elapsed: formatElapsed((r.finishedAt ?? Date.now()) - r.createdAt),
    file: r.file ?? null,
    sidecar: r.sidecar ?? null,
  };
}

function icon(r: VideoTaskRecord): string {
  switch (r.state) {
    case 'creating':
    case 'polling':
    case 'downloading':
      return '$(sync~spin)';
    case 'timed_out':
    case 'paused':
      return '$(clock)';
    case 'saved':
      return '$(check)';
    case 'failed':
    case 'error':
      return '$(error)';
  }
}

/** The task list (status-bar click, "Show Video Tasks"), then the actions of the chosen task. */
export async function showTaskList(s: Services, manager: VideoJobManager): Promise<void> {
  const records = manager.list();
  if (records.length === 0) {
    const gen = vscode.l10n.t('Generate Video');
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('No video tasks yet.'), gen);
    if (pick === gen) await vscode.commands.executeCommand('gatewayStudio.video.generate');
    return;
  }
  const now = Date.now();
  const chosen = await vscode.window.showQuickPick(
    records.map((r) => ({
      label: `${icon(r)} ${shortPrompt(r)}`,
      description: stateLabel(r),
      detail: [r.request.model || undefined, r.videoId, formatElapsed((r.finishedAt ?? now) - r.createdAt)]
        .filter(Boolean)
        .join(' · '),
      key: r.key,
    })),
    {
      title: vscode.l10n.t('Gateway Studio: Video Tasks'),
      placeHolder: vscode.l10n.t('Choose a task for its actions'),
      matchOnDetail: true,
    },
  );
  if (!chosen) return;
  const r = manager.get(chosen.key);
  if (!r) return;
  const running = manager.isRunning(r.key);
  const actions: { label: string; action: TaskAction }[] = [];
  if (r.file) actions.push({ label: vscode.l10n.t('$(play) Open the video'), action: 'open' });
  actions.push({ label: vscode.l10n.t('$(info) Show details'), action: 'details' });
  if (r.videoId) actions.push({ label: vscode.l10n.t('$(copy) Copy the id'), action: 'copyId' });
  if (!running && canResume(r))
    actions.push({ label: vscode.l10n.t('$(debug-continue) Resume watching'), action: 'resume' });
  if (running) actions.push({ label: vscode.l10n.t('$(debug-pause) Stop watching'), action: 'stop' });
  actions.push({ label: vscode.l10n.t('$(trash) Remove from the list'), action: 'remove' });
  const act = await vscode.window.showQuickPick(actions, { title: shortPrompt(r), placeHolder: stateLabel(r) });
  if (act) await runAction(s, manager, r.key, act.action);
}
