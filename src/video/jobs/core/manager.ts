/**
 * All video tasks of a workspace: submits new ones, resumes unfinished ones at start-up, and lets
 * the UI pause, resume and remove them. It owns one {@link VideoJob} per record.
 */
import { randomUUID } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { GatewayError } from '../../../api/transport/errors';
import { validateVideoRequest, type VideoCreateRequest } from '../../../api/video/videoRules';
import { assertVideoId } from '../../../api/video/videoStatus';
import * as path from 'node:path';
import { VideoJob, type VideoJobDeps, type VideoRunEnd } from './job';
import { partStaleAfterMs, removeStalePartFiles } from './partFiles';
import { ACTIVE_STATES, fileStem, isTaskRecord, type VideoTaskRecord } from './record';

/** Saved or failed tasks kept in the list; older ones are dropped when a new task starts. */
export const MAX_FINISHED = 50;

export interface SubmitInput {
  request: VideoCreateRequest;
  /** Labels of the reference images for the record (file names, URLs); the data stays in memory. */
  imageLabels?: string[];
  /** The gateway profile to run on (default: the deps' `profile()`, the active one). */
  profile?: string;
}

export interface VideoManagerEvents {
  /** Any record changed (or was removed: `removed` true). */
  onChange?: (record: VideoTaskRecord, removed: boolean) => void;
  /** A run ended; the UI notifies on `saved`, `failed`, `error` and `timed_out`. */
  onEnd?: (record: VideoTaskRecord, end: VideoRunEnd) => void;
}

export class VideoJobManager {
  private readonly jobs = new Map<string, VideoJob>();
  private readonly deps: VideoJobDeps;
  /**
   * The start-up sweep of temporary download files that earlier windows left beside the tasks'
   * videos (see {@link removeStalePartFiles}); resolves with the removed paths and never rejects.
   */
  readonly startupCleanup: Promise<string[]>;

  constructor(
    deps: Omit<VideoJobDeps, 'onChange'>,
    private readonly events: VideoManagerEvents = {},
  ) {
    this.deps = { ...deps, onChange: (r) => this.events.onChange?.(r, false) };
    for (const r of deps.store.load()) {
      if (isTaskRecord(r)) this.jobs.set(r.key, new VideoJob(r, this.deps));
    }
    this.startupCleanup = this.sweepPartFiles();
  }

  /**
   * Removes every task's leftover `.part` files that nothing has written to for longer than the
   * stream idle timeout plus a margin (`partStaleAfterMs`): younger ones may be a download another
   * window of this workspace is running right now. The files of a window killed just before this
   * one started are therefore kept now and removed by a later start, or when their task's download
   * starts again after they went stale.
   */
  private async sweepPartFiles(): Promise<string[]> {
    const removed: string[] = [];
    const seen = new Set<string>();
    let olderThanMs: number;
    try {
      olderThanMs = partStaleAfterMs(this.deps.idleTimeoutMs?.());
    } catch {
      // Settings that cannot be read at start-up must not stop the sweep: the default applies.
      olderThanMs = partStaleAfterMs(undefined);
    }
    for (const job of this.jobs.values()) {
      const r = job.record;
      try {
        const dir = r.saveDir ?? (r.file ? path.dirname(r.file) : undefined);
        if (!dir || !r.videoId) continue;
        const stem = fileStem(r.request.prompt, r.videoId);
        const key = `${dir}\n${stem}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // File times are wall-clock times, whatever clock the manager was given.
        removed.push(...(await removeStalePartFiles(dir, stem, { olderThanMs })));
      } catch {
        // A record damaged in storage (a prompt that is not text) cannot name its files: skip it.
      }
    }
    return removed;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Records, newest first. */
  list(): VideoTaskRecord[] {
    return [...this.jobs.values()].map((j) => j.record).sort((a, b) => b.createdAt - a.createdAt);
  }

  get(key: string): VideoTaskRecord | undefined {
    return this.jobs.get(key)?.record;
  }

  isRunning(key: string): boolean {
    return this.jobs.get(key)?.isRunning ?? false;
  }

  /**
   * Validates (spec 2.4: nothing invalid is sent), records the task in `creating`, then runs it.
   * Throws a `validation` {@link GatewayError} listing every broken rule. Resolves once the record
   * exists; `done` settles when the run ends.
   */
  async submit(
    input: SubmitInput,
  ): Promise<{ record: VideoTaskRecord; warnings: string[]; done: Promise<VideoRunEnd> }> {
    const v = validateVideoRequest(input.request);
    if (v.errors.length > 0) {
      throw new GatewayError('validation', v.errors.map((e) => e.message).join('\n'), { field: v.errors[0]?.field });
    }
    const req = v.request;
    const now = this.now();
    const labels =
      input.imageLabels ??
      [...(req.image_urls ?? [])].map((u) => (u.startsWith('data:') ? l10n.t('(embedded image)') : u));
    const record: VideoTaskRecord = {
      v: 1,
      key: randomUUID(),
      state: 'creating',
      request: {
        model: req.model,
        prompt: req.prompt,
        seconds: req.seconds,
        aspect_ratio: req.aspect_ratio,
        resolution: req.resolution,
        images: labels,
      },
      warnings: v.warnings.map((w) => w.message),
      polls: 0,
      transientErrors: 0,
      createdAt: now,
      updatedAt: now,
      ...this.profileField(input.profile),
    };
    // Persisted before the POST, so a crash mid-request is seen as "interrupted", never resent.
    await this.deps.store.save(record);
    await this.prune();
    const job = new VideoJob(record, this.deps, req);
    this.jobs.set(record.key, job);
    this.events.onChange?.(record, false);
    return { record, warnings: record.warnings, done: this.drive(job) };
  }

  /** The profile a new task is bound to: the given one, else the active one (none: Default). */
  private profileField(given: string | undefined): { profile?: string } {
    const p = given ?? this.deps.profile?.();
    return p === undefined ? {} : { profile: p };
  }

  /** Records still running on `profile` (polling, downloading or being created). */
  runningOn(profile: string, isDefault: boolean): VideoTaskRecord[] {
    return this.list().filter(
      (r) =>
        (r.profile === profile || (isDefault && r.profile === undefined)) &&
        (r.state === 'creating' || r.state === 'polling' || r.state === 'downloading'),
    );
  }

  /**
   * Follows a task by its id (Check Video Task: an id kept after a timeout, or from elsewhere).
   * An id already in the list is resumed instead of added twice.
   */
  async track(
    id: string,
    prompt = '',
    profile?: string,
  ): Promise<{ record: VideoTaskRecord; done: Promise<VideoRunEnd> }> {
    const videoId = assertVideoId(id);
    const existing = [...this.jobs.values()].find((j) => j.record.videoId === videoId);
    if (existing) return { record: existing.record, done: this.resume(existing.record.key) };
    const now = this.now();
    const record: VideoTaskRecord = {
      v: 1,
      key: randomUUID(),
      state: 'polling',
      request: { model: '', prompt, images: [] },
      warnings: [],
      videoId,
      polls: 0,
      transientErrors: 0,
      createdAt: now,
      updatedAt: now,
      ...this.profileField(profile),
    };
    await this.deps.store.save(record);
    const job = new VideoJob(record, this.deps);
    this.jobs.set(record.key, job);
    this.events.onChange?.(record, false);
    return { record, done: this.drive(job) };
  }

  /**
   * Resumes every task that was active when the window closed (activation), and gives each task
   * that hit the poll limit a new round: it was still running on the gateway, and the next start
   * is when the spec's "query later" happens. Paused tasks stay paused (the user chose). Never creates.
   */
  resumeUnfinished(): Promise<VideoRunEnd>[] {
    const out: Promise<VideoRunEnd>[] = [];
    for (const job of this.jobs.values()) {
      if (job.isRunning) continue;
      if (ACTIVE_STATES.includes(job.record.state)) out.push(this.drive(job));
      else if (job.record.state === 'timed_out' && job.record.videoId) out.push(this.finish(job, job.resume()));
    }
    return out;
  }

  /** Polls (or downloads) again: "Resume" in the task list. */
  resume(key: string): Promise<VideoRunEnd> {
    const job = this.mustGet(key);
    return this.finish(job, job.resume());
  }

  /** Stop watching: the gateway keeps working; Resume picks it up. */
  async pause(key: string): Promise<void> {
    await this.mustGet(key).pause();
  }

  /** Removes a task from the list (the video file and the gateway task are untouched). */
  async remove(key: string): Promise<void> {
    const job = this.jobs.get(key);
    if (!job) return;
    await job.pause();
    this.jobs.delete(key);
    await this.deps.store.remove(key);
    this.events.onChange?.(job.record, true);
  }

  /**
   * Keeps the list (and workspace state) bounded: beyond {@link MAX_FINISHED} saved or failed
   * tasks the oldest are dropped. Unfinished tasks are never dropped: they hold ids to resume.
   */
  private async prune(): Promise<void> {
    const finished = this.list().filter((r) => r.state === 'saved' || r.state === 'failed');
    for (const r of finished.slice(MAX_FINISHED)) await this.remove(r.key);
  }

  /** Stops every running job without changing records (deactivation: they resume next time). */
  dispose(): void {
    // Nothing is written: records of running jobs stay active and resume at the next activation.
    for (const job of this.jobs.values()) job.detach();
  }

  private mustGet(key: string): VideoJob {
    const job = this.jobs.get(key);
    if (!job) throw new Error(l10n.t('No video task {0}.', key));
    return job;
  }

  private drive(job: VideoJob): Promise<VideoRunEnd> {
    return this.finish(job, job.run());
  }

  private finish(job: VideoJob, p: Promise<VideoRunEnd>): Promise<VideoRunEnd> {
    return p.then((end) => {
      if (this.jobs.get(job.record.key) === job) this.events.onEnd?.(job.record, end);
      return end;
    });
  }
}
