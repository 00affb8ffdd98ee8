/**
 * One video task driven through validate → create → poll → download. The job owns nothing but its
 * record: every transition is written to the store before the next step starts, so a new job built
 * from the stored record (a restart) carries on, and a task is never created twice.
 */
import { constants as fsc, promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { GatewayError, isGatewayError } from '../../../api/transport/errors';
import type { VideoDownload } from './saveDownload';
import type { VideoCreateRequest } from '../../../api/video/videoRules';
import type { VideoStatus } from '../../../api/video/videoStatus';
import { partStaleAfterMs, removeStalePartFiles } from './partFiles';
import { pollLoop, type VideoStatusReader } from './pollLoop';
import { saveError } from './saveErrors';
import { taskError } from './errorText';
import { fileStem, type VideoTaskError, type VideoTaskRecord, type VideoTaskStore } from './record';

/**
 * What the job needs from the gateway client: `VideoClient` fits; tests may wrap it. A poll round
 * reads statuses from the api, or from the reader `readerForRound` builds once per round (the
 * extension builds a client there: a key set or cleared meanwhile applies from the next round).
 */
export type VideoApi = {
  create(req: VideoCreateRequest, signal?: AbortSignal): Promise<{ id: string }>;
  download: VideoDownload;
} & (VideoStatusReader | { readerForRound(): Promise<VideoStatusReader> });

export interface VideoJobDeps {
  api: VideoApi;
  /** The api of a task's own profile (record.profile); absent: `api` for every task. */
  apiFor?: (profile: string | undefined) => VideoApi;
  /** The profile new tasks are recorded with (the active one). */
  profile?: () => string | undefined;
  store: VideoTaskStore;
  /** Read at every round so a settings change applies to the next round. */
  pollIntervalMs: () => number;
  pollLimit: () => number;
  /**
   * The stream idle timeout downloads run with (`gatewayStudio.network.streamIdleTimeoutSeconds`,
   * in ms), read at each use. It decides when another download's `.part` file counts as abandoned
   * (see `partStaleAfterMs`); absent, the HTTP client's default (120 s) is assumed.
   */
  idleTimeoutMs?: () => number;
  /** The folder to save into; undefined means the user declined to choose one. */
  destination: (record: VideoTaskRecord) => Promise<string | undefined>;
  now?: () => number;
  /** Called after every write of the record (status bar, task list). */
  onChange?: (record: VideoTaskRecord) => void;
}

/** How a job ended its run: `why` tells a caller whether to notify. */
export type VideoRunEnd = 'saved' | 'failed' | 'error' | 'timed_out' | 'paused';

/**
 * A job over one record. `request` is given only to a job that is about to create its task (it
 * carries the image data, which is never persisted); a job resumed from a record has none and will
 * therefore never create.
 */
export class VideoJob {
  private running: Promise<VideoRunEnd> | undefined;
  private controller: AbortController | undefined;
  private pauseRequested = false;
  private detached = false;

  constructor(
    private rec: VideoTaskRecord,
    private readonly deps: VideoJobDeps,
    private request?: VideoCreateRequest,
  ) {}

  /** The api of this task's profile, looked up per use (a re-added profile's new key applies). */
  private api(): VideoApi {
    return this.deps.apiFor?.(this.rec.profile) ?? this.deps.api;
  }

  get record(): Readonly<VideoTaskRecord> {
    return this.rec;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Runs from the current state until the task is saved, failed, timed out or paused. */
  run(): Promise<VideoRunEnd> {
    if (!this.running) {
      this.pauseRequested = false;
      this.controller = new AbortController();
      this.running = this.loop(this.controller.signal).finally(() => {
        this.running = undefined;
        this.controller = undefined;
      });
    }
    return this.running;
  }

  /** Starts another round of polling (after a timeout, a pause or an error); never creates. */
  async resume(): Promise<VideoRunEnd> {
    if (this.running) return this.running;
    // Without an id there is nothing to poll, and creating again could bill twice.
    if (!this.rec.videoId) return 'error';
    if (this.rec.state === 'saved' || this.rec.state === 'failed') return this.rec.state;
    // Even a completed task is asked again: its result link may be a temporary one (spec 2.7) that
    // expired meanwhile, and the fresh status brings a fresh link (one extra GET, never a creation).
    await this.update({ state: 'polling', polls: 0, error: undefined });
    return this.run();
  }

  /** Stops watching: the task keeps running on the gateway and can be resumed. */
  async pause(): Promise<void> {
    if (this.running) {
      this.pauseRequested = true;
      this.controller?.abort();
      await this.running.catch(() => undefined);
    }
  }

  /**
   * Stops the run without writing anything (window closing): the record stays in its active state,
   * so the next activation resumes it.
   */
  detach(): void {
    this.detached = true;
    this.controller?.abort();
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Writes the record; after {@link detach} only `force`d writes (the new task id) still go out. */
  private async update(patch: Partial<VideoTaskRecord>, force = false): Promise<void> {
    if (this.detached && !force) return;
    this.rec = { ...this.rec, ...patch, updatedAt: this.now() };
    await this.deps.store.save(this.rec);
    this.deps.onChange?.(this.rec);
  }

  private async loop(signal: AbortSignal): Promise<VideoRunEnd> {
    try {
      for (;;) {
        if (signal.aborted) throw new GatewayError('aborted', l10n.t('Stopped watching.'));
        switch (this.rec.state) {
          case 'creating':
            await this.create();
            break;
          case 'polling':
            await this.pollRound(signal);
            break;
          case 'downloading':
            await this.save(signal);
            break;
          case 'saved':
          case 'failed':
          case 'timed_out':
          case 'paused':
          case 'error':
            return this.rec.state;
        }
      }
    } catch (err) {
      if (this.pauseRequested || (signal.aborted && isGatewayError(err, 'aborted'))) {
        await this.update({ state: 'paused' });
        return 'paused';
      }
      const error = saveError(err, this.rec.saveDir) ?? taskError(err);
      await this.update({ state: 'error', error, finishedAt: this.now() });
      return 'error';
    }
  }

  private async create(): Promise<void> {
    const request = this.request;
    if (!request) {
      // A stored record in `creating`: the POST may or may not have reached the gateway. Sending it
      // again could bill twice, so the user is told instead.
      await this.update({
        state: 'error',
        finishedAt: this.now(),
        error: {
          kind: 'interrupted',
          title: l10n.t('Interrupted while the task was being created'),
          detail: l10n.t(
            'VS Code stopped while the video request was being sent, so it is unknown whether the gateway created the task. It was not sent again (it would be billed twice); check the usage records in the console.',
          ),
        },
      });
      return;
    }
    this.request = undefined;
    // Not abortable: once sent, the task exists (and is billed) whether or not we wait, so the id
    // must be kept even if the user stops watching or the window closes meanwhile.
    let id: string;
    try {
      ({ id } = await this.api().create(request));
    } catch (err) {
      if (!createMayHaveHappened(err)) throw err;
      // The usual "try again" would be wrong here: the task may exist and be billed already.
      await this.update({
        state: 'error',
        finishedAt: this.now(),
        error: {
          kind: 'interrupted',
          title: l10n.t('No answer to the video request'),
          detail: l10n.t(
            '{0} The request may have reached the gateway and created a task (which is billed), so it was not sent again. Check the usage records in the console before generating it again.',
            err instanceof Error ? err.message : String(err),
          ),
        },
      });
      return;
    }
    await this.update({ state: 'polling', videoId: id, polls: 0, status: 'queued', progress: 0 }, true);
  }

  private async pollRound(signal: AbortSignal): Promise<void> {
    const id = this.rec.videoId;
    if (!id) throw new GatewayError('invalid_response', l10n.t('The task has no video id.'));
    let pending: Promise<void> = Promise.resolve();
    const api = this.api();
    const reader = 'readerForRound' in api ? await api.readerForRound() : api;
    const result = await pollLoop(reader, id, {
      intervalMs: this.deps.pollIntervalMs(),
      limit: this.deps.pollLimit(),
      // A round restarted after a window closed goes on counting toward the limit.
      polled: this.rec.polls,
      signal,
      onStatus: (s, n) => {
        pending = pending.then(() =>
          this.update({ status: s.status, progress: s.progress ?? this.rec.progress, polls: n }),
        );
      },
      onTransientError: (_e, n) => {
        pending = pending.then(() => this.update({ polls: n, transientErrors: this.rec.transientErrors + 1 }));
      },
    });
    await pending;
    if (result.kind === 'timeout') {
      await this.update({ state: 'timed_out', polls: result.polls });
      return;
    }
    const s = result.status;
    if (s.outcome === 'completed') {
      await this.update({
        state: 'downloading',
        outcome: 'completed',
        status: s.status,
        progress: 100,
        resultUrl: s.resultUrl,
      });
      return;
    }
    await this.update({
      state: 'failed',
      outcome: s.outcome,
      status: s.status,
      progress: s.progress,
      failReason: s.failReason,
      finishedAt: this.now(),
      error: failureError(s),
    });
  }

  private async save(signal: AbortSignal): Promise<void> {
    const id = this.rec.videoId;
    if (!id) throw new GatewayError('invalid_response', l10n.t('The task has no video id.'));
    const dir = await this.deps.destination(this.rec);
    if (dir === undefined) {
      await this.update({
        state: 'error',
        error: {
          kind: 'no_folder',
          title: l10n.t('Not saved: no folder chosen'),
          detail: l10n.t('The video is ready on the gateway. Resume the task to choose a folder and save it.'),
        },
      });
      return;
    }
    await fs.mkdir(dir, { recursive: true });
    // Known before any byte is written, so the next start can sweep what a crash here leaves.
    if (this.rec.saveDir !== dir) await this.update({ saveDir: dir });
    const stem = fileStem(this.rec.request.prompt, id);
    // Temporary files of this task's earlier downloads (a window that died mid-download) go, but
    // only once silent for longer than the idle timeout: a second window of this workspace may be
    // downloading the same task right now, and its live file must survive. A window killed moments
    // ago thus leaves a file this start keeps; a later start or resume removes it (acceptable: it
    // is hidden, and its name never collides with the video's). Other tasks' files are left alone.
    await removeStalePartFiles(dir, stem, { olderThanMs: partStaleAfterMs(this.deps.idleTimeoutMs?.()) });
    const source = this.rec.resultUrl ?? id;
    const { saveTo } = await import('./saveDownload'); // on first use: activation resumes, saves nothing
    let result: { file: string; bytes: number } | undefined;
    let file = '';
    // A proxy that cuts a long transfer short is retried once, then reported (issue 5).
    for (let attempt = 1; !result; attempt++) {
      file = await freeName(dir, stem);
      try {
        // With the id the client takes the content route first (with the key); the status's result
        // URL is only its fallback (a relay that serves temporary direct links only, spec 2.7).
        result = await this.api().download(source, saveTo(file), { signal, videoId: id });
      } catch (err) {
        const again = attempt === 1 && (isGatewayError(err, 'truncated', 'network') || isExists(err));
        if (!again) throw err;
      }
    }
    const sidecar = file.replace(/\.mp4$/, '.json');
    const finishedAt = this.now();
    const meta = {
      prompt: this.rec.request.prompt,
      model: this.rec.request.model,
      parameters: {
        seconds: this.rec.request.seconds,
        aspect_ratio: this.rec.request.aspect_ratio,
        resolution: this.rec.request.resolution,
        reference_images: this.rec.request.images,
      },
      id,
      status: this.rec.status,
      warnings: this.rec.warnings,
      createdAt: new Date(this.rec.createdAt).toISOString(),
      savedAt: new Date(finishedAt).toISOString(),
      bytes: result.bytes,
      file: path.basename(file),
    };
    let sidecarPath: string | undefined = sidecar;
    try {
      await fs.writeFile(sidecar, JSON.stringify(meta, null, 2) + '\n', { flag: 'wx' });
    } catch {
      // The video matters more than its note: a sidecar that cannot be written is left out.
      sidecarPath = undefined;
    }
    await this.update({
      state: 'saved',
      file: result.file,
      sidecar: sidecarPath,
      bytes: result.bytes,
      finishedAt,
      error: undefined,
    });
  }
}

/** Connection failures that happen before anything is sent: the task was certainly not created. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a failed creation POST may still have created the task: the header deadline passed, or
 * the connection broke after it was made. Errors with an HTTP status are answers (no task).
 */
function createMayHaveHappened(err: unknown): boolean {
  if (isGatewayError(err, 'timeout')) return err.status === undefined;
  if (!isGatewayError(err, 'network')) return false;
  for (let cur: unknown = err.cause, i = 0; cur instanceof Error && i < 5; cur = cur.cause, i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return false;
  }
  return true;
}

function isExists(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EEXIST';
}

/** `<base>.mp4` in `dir` such that neither it nor its `.json` sidecar exists: nothing is overwritten. */
export async function freeName(dir: string, base: string): Promise<string> {
  for (let n = 1; n < 10_000; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const mp4 = path.join(dir, `${name}.mp4`);
    const json = path.join(dir, `${name}.json`);
    if (!(await exists(mp4)) && !(await exists(json))) return mp4;
  }
  throw new Error(l10n.t('No free file name for {0} in {1}.', base, dir));
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p, fsc.F_OK);
    return true;
  } catch {
    return false;
  }
}

function failureError(s: VideoStatus): VideoTaskError {
  const reason = s.failReason ?? l10n.t('the gateway gave no reason');
  const title =
    s.outcome === 'cancelled'
      ? l10n.t('The video task was cancelled')
      : s.outcome === 'expired'
        ? l10n.t('The video task expired')
        : l10n.t('The video task failed');
  const imageFetch = /fetch|download|image/i.test(s.failReason ?? '');
  const detail = imageFetch
    ? l10n.t(
        '{0}. The service could not fetch a reference image: use a real direct HTTPS link to the image file or send it as base64.',
        reason,
      )
    : l10n.t('Status {0}: {1}.', s.status, reason);
  return { kind: imageFetch ? 'image_fetch' : 'video_failed', title, detail };
}
