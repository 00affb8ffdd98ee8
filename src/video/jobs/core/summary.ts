/**
 * What the status bar and the task list say about the tasks, as plain data: the UI only maps it to
 * VS Code objects, and the texts per state are testable without VS Code.
 */
import * as l10n from '@vscode/l10n';
import { ACTIVE_STATES, type VideoTaskRecord, type VideoTaskState } from './record';

export interface StatusBarModel {
  visible: boolean;
  /** With codicons, e.g. `$(sync~spin) a red fox · 35%`. */
  text: string;
  /** One block per task (newest first), lines separated by `\n`. */
  tooltip: string;
  /** `spinning` while something runs, `waiting` for timed out or paused tasks, else the last end. */
  mood: 'spinning' | 'waiting' | 'saved' | 'failed' | 'idle';
}

const SHORT_PROMPT = 24;

/** The prompt cut to fit the status bar; a task followed by id shows its short id instead. */
export function shortPrompt(r: VideoTaskRecord): string {
  const p = r.request.prompt.replace(/\s+/g, ' ').trim();
  if (!p) return r.videoId ? l10n.t('video {0}', r.videoId.slice(-8)) : l10n.t('video');
  return p.length > SHORT_PROMPT ? `${p.slice(0, SHORT_PROMPT - 1)}…` : p;
}

/** A state in words, for tooltips and the task list. */
export function stateLabel(r: VideoTaskRecord): string {
  const pct = r.progress !== undefined ? ` ${Math.round(r.progress)}%` : '';
  const labels: Record<VideoTaskState, string> = {
    creating: l10n.t('sending the request'),
    polling: r.status ? l10n.t('{0}{1}', r.status, pct) : l10n.t('waiting for the gateway'),
    timed_out: l10n.t('still running — check later'),
    paused: l10n.t('not watched (resume to continue)'),
    downloading: l10n.t('downloading'),
    saved: l10n.t('saved'),
    failed:
      r.outcome === 'cancelled' ? l10n.t('cancelled') : r.outcome === 'expired' ? l10n.t('expired') : l10n.t('failed'),
    error: r.error ? r.error.title : l10n.t('error'),
  };
  return labels[r.state];
}

/** `1m 05s`, `42s`, `1h 02m`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** Tooltip block of one task: model, id, status, elapsed. */
export function taskTooltip(r: VideoTaskRecord, now: number): string {
  const end = r.finishedAt ?? now;
  return [
    `${shortPrompt(r)}`,
    l10n.t('Model: {0}', r.request.model || l10n.t('(unknown)')),
    l10n.t('Id: {0}', r.videoId ?? l10n.t('(not created yet)')),
    l10n.t('Status: {0}', stateLabel(r)),
    l10n.t('Elapsed: {0}', formatElapsed(end - r.createdAt)),
  ].join('\n');
}

/**
 * The status-bar item for a set of tasks:
 * - one active task: `$(sync~spin) <short prompt> · 35%` (`· sending`, `· saving`);
 * - several: `$(sync~spin) 2 videos · 35%` (mean progress of the active ones);
 * - none active but some timed out or paused: `$(clock) 1 video · check later`;
 * - otherwise the latest end: `$(check) Video saved` / `$(error) Video failed`; hidden with no tasks.
 */
export function statusBarModel(records: readonly VideoTaskRecord[], now: number): StatusBarModel {
  if (records.length === 0) return { visible: false, text: '', tooltip: '', mood: 'idle' };
  const sorted = [...records].sort((a, b) => b.createdAt - a.createdAt);
  const tooltip =
    sorted
      .slice(0, 6)
      .map((r) => taskTooltip(r, now))
      .join('\n\n') + (sorted.length > 6 ? '\n\n' + l10n.t('…and {0} more', sorted.length - 6) : '');
  const active = sorted.filter((r) => ACTIVE_STATES.includes(r.state));
  if (active.length === 1) {
    const r = active[0]!;
    const tail =
      r.state === 'creating'
        ? l10n.t('sending')
        : r.state === 'downloading'
          ? l10n.t('saving')
          : `${Math.round(r.progress ?? 0)}%`;
    return { visible: true, text: `$(sync~spin) ${shortPrompt(r)} · ${tail}`, tooltip, mood: 'spinning' };
  }
  if (active.length > 1) {
    const mean = Math.round(active.reduce((sum, r) => sum + (r.progress ?? 0), 0) / active.length);
    return {
      visible: true,
      text: `$(sync~spin) ${l10n.t('{0} videos · {1}%', active.length, mean)}`,
      tooltip,
      mood: 'spinning',
    };
  }
  const waiting = sorted.filter((r) => r.state === 'timed_out' || r.state === 'paused');
  if (waiting.length > 0) {
    const text =
      waiting.length === 1 ? l10n.t('1 video · check later') : l10n.t('{0} videos · check later', waiting.length);
    return { visible: true, text: `$(clock) ${text}`, tooltip, mood: 'waiting' };
  }
  const last = sorted[0]!;
  if (last.state === 'saved')
    return { visible: true, text: `$(check) ${l10n.t('Video saved')}`, tooltip, mood: 'saved' };
  return { visible: true, text: `$(error) ${l10n.t('Video failed')}`, tooltip, mood: 'failed' };
}

/** Whether Resume makes sense: an id is known and the task is not finished. */
export function canResume(r: VideoTaskRecord): boolean {
  return r.videoId !== undefined && (r.state === 'timed_out' || r.state === 'paused' || r.state === 'error');
}
