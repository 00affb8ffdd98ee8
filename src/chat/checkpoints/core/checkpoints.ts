import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import { summarizeChange } from '../../tools/core/edit';
import type { CheckpointStorage } from './storage';
import type { ChangeRecorder, RecordedChange } from '../../conversation/core/contracts';
import { CheckpointRefused, targetProblem, type PlannedFile, type RestorePlan } from './restore';
import type { WorkspaceRoot } from '../../tools/core/paths';

export * from './storage';
export * from './restore';

/**
 * Checkpoints: what restores the files an answer changed. Before `write_file` or `edit_file`
 * applies a change, the file's prior content (or that it did not exist) is recorded under the
 * answer that made the call, once per file and answer; every later change of the file only moves
 * the "content the tools left" hash, which is how a restore notices a file the user changed since.
 *
 * `run_command` is not recorded: a command can change anything (untracked and ignored files,
 * other folders, databases), so a snapshot of tracked files would promise more than it restores;
 * its approval card says so instead.
 *
 * Storage is a small {@link CheckpointStorage} (a folder per conversation: an index and
 * content-addressed blobs); {@link FolderCheckpointStorage} keeps it on disk. Limits: one
 * answer's checkpoint holds at most {@link MAX_CHECKPOINT_BYTES} of prior content, all
 * checkpoints together {@link MAX_TOTAL_BYTES}. A change that does not fit is applied but not
 * recorded, and the tool card says that it cannot be restored.
 */

/** Prior content one answer's checkpoint may hold. */
export const MAX_CHECKPOINT_BYTES = 20 * 1024 * 1024;
/** Prior content all checkpoints of the workspace may hold together. */
export const MAX_TOTAL_BYTES = 200 * 1024 * 1024;
/** Version of the stored index. */
export const CHECKPOINT_VERSION = 1;

type Prior =
  | { kind: 'absent' }
  | { kind: 'content'; blob: string; bytes: number }
  | { kind: 'unrecorded'; reason: 'answer-limit' | 'total-limit' | 'failed' };

interface StoredFile {
  absolute: string;
  relative: string;
  prior: Prior;
  /** sha256 of the content the answer's last change left. */
  afterHash: string;
  callIds: string[];
}

interface StoredAnswer {
  answerId: string;
  /** Order of recording: a restore reverts this answer and every one recorded after it. */
  seq: number;
  createdAt: number;
  /** Bytes of prior content this answer's checkpoint added. */
  bytes: number;
  files: StoredFile[];
}

interface StoredIndex {
  version: number;
  conversationId: string;
  answers: StoredAnswer[];
}

/** One answer's checkpoint as the chat shows it. */
export interface CheckpointSummary {
  answerId: string;
  files: number;
  /** Files whose prior content could not be recorded (limits). */
  unrecorded: number;
}

export interface CheckpointStoreOptions {
  maxCheckpointBytes?: number;
  maxTotalBytes?: number;
  now?: () => number;
  /** Called after an answer's checkpoint changed (to refresh the chat's buttons). */
  onChange?: (conversationId: string) => void;
  warn?: (msg: string) => void;
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The checkpoints of every conversation of a workspace, over a {@link CheckpointStorage}. */
export class CheckpointStore implements ChangeRecorder {
  private readonly indexes = new Map<string, StoredIndex>();
  private total: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  readonly maxCheckpointBytes: number;
  readonly maxTotalBytes: number;

  constructor(
    private readonly storage: CheckpointStorage,
    private readonly opts: CheckpointStoreOptions = {},
  ) {
    this.maxCheckpointBytes = opts.maxCheckpointBytes ?? MAX_CHECKPOINT_BYTES;
    this.maxTotalBytes = opts.maxTotalBytes ?? MAX_TOTAL_BYTES;
  }

  /** Runs `fn` after every earlier operation, so two records never interleave their writes. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Never rejects: a checkpoint that cannot be stored must not stop the change the user approved. */
  record(c: RecordedChange): Promise<string | undefined> {
    return this.serial(() => this.recordNow(c)).catch((e: unknown) => {
      this.opts.warn?.(`checkpoint of ${c.relative} not stored: ${e instanceof Error ? e.message : String(e)}`);
      return this.note('failed');
    });
  }

  private recordNow(c: RecordedChange): Promise<string | undefined> {
    return (async () => {
      const index = await this.load(c.conversationId);
      let answer = index.answers.find((a) => a.answerId === c.answerId);
      if (!answer) {
        answer = {
          answerId: c.answerId,
          seq: Math.max(0, ...index.answers.map((a) => a.seq)) + 1,
          createdAt: (this.opts.now ?? Date.now)(),
          bytes: 0,
          files: [],
        };
        index.answers.push(answer);
      }
      const afterHash = contentHash(c.after);
      const known = answer.files.find((f) => f.absolute === c.absolute);
      if (known) {
        // The prior content of this answer was recorded by its first change of the file.
        known.afterHash = afterHash;
        known.callIds.push(c.callId);
        await this.writeIndex(index);
        return known.prior.kind === 'unrecorded' ? this.note(known.prior.reason) : undefined;
      }
      let prior: Prior = { kind: 'absent' };
      if (c.existed) {
        const blob = contentHash(c.before);
        const bytes = Buffer.byteLength(c.before, 'utf8');
        const stored = index.answers.some((a) =>
          a.files.some((f) => f.prior.kind === 'content' && f.prior.blob === blob),
        );
        const adds = stored ? 0 : bytes;
        if (answer.bytes + adds > this.maxCheckpointBytes) prior = { kind: 'unrecorded', reason: 'answer-limit' };
        else if ((await this.totalBytes()) + adds > this.maxTotalBytes)
          prior = { kind: 'unrecorded', reason: 'total-limit' };
        else {
          try {
            if (!stored) await this.storage.writeBlob(c.conversationId, blob, c.before);
            answer.bytes += adds;
            this.total = (this.total ?? 0) + adds;
            prior = { kind: 'content', blob, bytes };
          } catch (e) {
            this.opts.warn?.(`checkpoint of ${c.relative} not stored: ${e instanceof Error ? e.message : String(e)}`);
            prior = { kind: 'unrecorded', reason: 'failed' };
          }
        }
      }
      answer.files.push({ absolute: c.absolute, relative: c.relative, prior, afterHash, callIds: [c.callId] });
      await this.writeIndex(index);
      return prior.kind === 'unrecorded' ? this.note(prior.reason) : undefined;
    })();
  }

  /** The answers of a conversation that have a checkpoint, in recording order. */
  summaries(conversationId: string): Promise<CheckpointSummary[]> {
    return this.serial(async () => {
      const index = await this.load(conversationId);
      return [...index.answers]
        .sort((a, b) => a.seq - b.seq)
        .map((a) => ({
          answerId: a.answerId,
          files: a.files.length,
          unrecorded: a.files.filter((f) => f.prior.kind === 'unrecorded').length,
        }));
    });
  }

  /**
   * What restoring to before `answerId` does: every file that answer or a later one changed, back
   * to its content before the earliest of them. `current` reads a file as it is now (an open
   * editor's text wins over the disk in VS Code); undefined when it does not exist. Every target
   * is checked again against `roots` and every blob against its sha256: any failure refuses the
   * whole restore ({@link CheckpointRefused}), so nothing is ever partly restored.
   */
  plan(
    conversationId: string,
    answerId: string,
    current: (absolute: string) => Promise<string | undefined>,
    roots: readonly WorkspaceRoot[],
  ): Promise<RestorePlan | undefined> {
    return this.serial(async () => {
      const index = await this.load(conversationId);
      const from = index.answers.find((a) => a.answerId === answerId);
      if (!from) return undefined;
      const later = index.answers.filter((a) => a.seq >= from.seq).sort((a, b) => a.seq - b.seq);
      const byFile = new Map<string, { first: StoredFile; last: StoredFile }>();
      for (const a of later)
        for (const f of a.files) {
          const seen = byFile.get(f.absolute);
          if (seen) seen.last = f;
          else byFile.set(f.absolute, { first: f, last: f });
        }
      const files: PlannedFile[] = [];
      const problems: string[] = [];
      for (const { first, last } of byFile.values()) {
        if (first.prior.kind === 'unrecorded') {
          const base = { absolute: first.absolute, relative: first.relative, current: undefined };
          files.push({ ...base, status: 'unrecorded', action: 'none', prior: undefined, diff: '' });
          continue;
        }
        const problem = await targetProblem(first.absolute, first.relative, roots);
        if (problem) {
          problems.push(problem);
          continue;
        }
        const now = await current(first.absolute);
        const base = { absolute: first.absolute, relative: first.relative, current: now };
        let prior: string | undefined;
        if (first.prior.kind === 'content') {
          prior = await this.storage.readBlob(conversationId, first.prior.blob);
          if (prior === undefined) {
            files.push({ ...base, status: 'unrecorded', action: 'none', prior: undefined, diff: '' });
            continue;
          }
          if (contentHash(prior) !== first.prior.blob) {
            problems.push(
              l10n.t(
                'the stored content of {0} does not match its checksum (the checkpoint storage was changed)',
                first.relative,
              ),
            );
            continue;
          }
        }
        const action: PlannedFile['action'] =
          prior === undefined ? (now === undefined ? 'none' : 'delete') : now === undefined ? 'recreate' : 'restore';
        const status: PlannedFile['status'] =
          now === prior ? 'same' : now !== undefined && contentHash(now) === last.afterHash ? 'ok' : 'changed';
        files.push({
          ...base,
          status,
          action: status === 'same' ? 'none' : action,
          prior,
          diff: status === 'same' ? '' : summarizeChange(now ?? '', prior ?? ''),
        });
      }
      if (problems.length) throw new CheckpointRefused(problems);
      files.sort((a, b) => a.relative.localeCompare(b.relative));
      return { conversationId, answerId, files };
    });
  }

  /** Drops the checkpoints of `answerId` and every answer recorded after it (after a cut). */
  dropFrom(conversationId: string, answerId: string): Promise<void> {
    return this.serial(async () => {
      const index = await this.load(conversationId);
      const from = index.answers.find((a) => a.answerId === answerId);
      if (!from) return;
      const gone = index.answers.filter((a) => a.seq >= from.seq);
      index.answers = index.answers.filter((a) => a.seq < from.seq);
      const kept = new Set(blobsOf(index.answers));
      for (const blob of new Set(blobsOf(gone))) {
        if (kept.has(blob)) continue;
        await this.storage.removeBlob(conversationId, blob).catch(() => undefined);
      }
      this.total = undefined;
      if (index.answers.length === 0) {
        this.indexes.delete(conversationId);
        await this.storage.remove(conversationId);
      } else await this.writeIndex(index);
      this.opts.onChange?.(conversationId);
    });
  }

  /** Deletes a conversation's checkpoints (the conversation was deleted). */
  forget(conversationId: string): Promise<void> {
    return this.serial(async () => {
      this.indexes.delete(conversationId);
      this.total = undefined;
      await this.storage.remove(conversationId);
    });
  }

  /** Deletes the checkpoints of every conversation not in `keep` (deleted elsewhere, or before a crash). */
  prune(keep: ReadonlySet<string>): Promise<string[]> {
    return this.serial(async () => {
      const removed: string[] = [];
      for (const id of await this.storage.conversations()) {
        if (keep.has(id)) continue;
        this.indexes.delete(id);
        await this.storage.remove(id);
        removed.push(id);
      }
      if (removed.length) this.total = undefined;
      return removed;
    });
  }

  /** Bytes of prior content stored for every conversation. */
  async totalBytes(): Promise<number> {
    if (this.total !== undefined) return this.total;
    let sum = 0;
    for (const id of await this.storage.conversations()) {
      const index = await this.load(id);
      sum += index.answers.reduce((n, a) => n + a.bytes, 0);
    }
    this.total = sum;
    return sum;
  }

  private note(reason: 'answer-limit' | 'total-limit' | 'failed'): string {
    const mb = (n: number) => String(Math.round(n / 1024 / 1024));
    switch (reason) {
      case 'answer-limit':
        return l10n.t(
          "Not in this answer's checkpoint (it holds {0} MB at most): Restore cannot bring this file back.",
          mb(this.maxCheckpointBytes),
        );
      case 'total-limit':
        return l10n.t(
          'Not in a checkpoint: the checkpoints of this workspace hold {0} MB at most (delete old conversations to free it). Restore cannot bring this file back.',
          mb(this.maxTotalBytes),
        );
      case 'failed':
        return l10n.t(
          'Not in a checkpoint: its prior content could not be stored. Restore cannot bring this file back.',
        );
    }
  }

  private async load(conversationId: string): Promise<StoredIndex> {
    const cached = this.indexes.get(conversationId);
    if (cached) return cached;
    const empty: StoredIndex = { version: CHECKPOINT_VERSION, conversationId, answers: [] };
    const text = await this.storage.readIndex(conversationId);
    let index = empty;
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as Partial<StoredIndex>;
        if (parsed.version === CHECKPOINT_VERSION && Array.isArray(parsed.answers))
          index = { version: CHECKPOINT_VERSION, conversationId, answers: parsed.answers };
        else this.opts.warn?.(`checkpoints of ${conversationId}: unknown format, left unused`);
      } catch {
        this.opts.warn?.(`checkpoints of ${conversationId}: unreadable index, left unused`);
      }
    }
    this.indexes.set(conversationId, index);
    return index;
  }

  private async writeIndex(index: StoredIndex): Promise<void> {
    await this.storage.writeIndex(index.conversationId, JSON.stringify(index));
    this.opts.onChange?.(index.conversationId);
  }
}

function blobsOf(answers: StoredAnswer[]): string[] {
  return answers.flatMap((a) => a.files.flatMap((f) => (f.prior.kind === 'content' ? [f.prior.blob] : [])));
}
