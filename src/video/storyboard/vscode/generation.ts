import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';
import { mediaCatalog } from '../../../platform/mediaCatalog';
import type { Catalog } from '../../../api/catalog/catalog';
import type { VideoFeature } from '../../base/vscode/feature';
import type { VideoTaskRecord } from '../../jobs/core/record';
import { effectiveShot, type Board, type BoardEdit } from '../core/board';
import {
  allUnits,
  dependencyOf,
  runSummary,
  shotProblems,
  shotRequest,
  unitKey,
  type Fallback,
  type Unit,
  type UnitStatus,
} from '../core/plan';
import { freezeUnit, unitChanges, type ApprovedUnit } from '../core/approved';
import { totalLine, type ClipQuote } from '../../base/core/price';
import { BoardRun, type ShotKeyframes, type UnitEnd } from '../core/run';
import {
  emptyState,
  takeFileName,
  takeOf,
  withChosen,
  withTake,
  type BoardState,
  type TakeRecord,
} from '../core/state';
import { approve, approveChange } from './approval';
import { freezeUnits, loadApprovedRun, saveApprovedRun } from './approvedRun';
import { imageFileProblems, keepClip, readState, shotImages, writeState } from './files';
import { Keyframes } from './keyframes';

const FINAL = new Set<VideoTaskRecord['state']>(['saved', 'failed', 'error', 'timed_out', 'paused']);

export interface GenerationHost {
  s: Services;
  feature: VideoFeature;
  boardPath: string;
  board(): Board | undefined;
  fallback(): Fallback;
  /** The last frame of a saved clip, decoded by the board's page. */
  lastFrame(file: string): Promise<string>;
  changed(): void;
  /** Writes an edit into the board (a generated keyframe's file). */
  edit?(edit: BoardEdit): Promise<boolean>;
}

/**
 * A board's generation: the state file, the run in progress, and the link between the board's
 * takes and the video manager's tasks. A take is followed only when this window's manager knows
 * its task key: a state file's claim alone (another machine, a hostile repository) starts
 * nothing and polls nothing.
 */
export class BoardGeneration implements vscode.Disposable {
  state: BoardState = emptyState();
  stateError: string | undefined;
  run: BoardRun | undefined;
  private fileProblems = new Map<string, string>();
  /** The run's units as approved (unit key -> frozen request): a unit sent otherwise asks again. */
  private approved = new Map<string, ApprovedUnit>();
  private writing: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly subs: vscode.Disposable[] = [];
  private readonly keys: Keyframes;

  constructor(private readonly h: GenerationHost) {
    this.keys = new Keyframes(h);
    this.subs.push(h.feature.onDidChange((e) => void this.follow(e.record, e.removed)));
  }

  async load(): Promise<void> {
    const r = await readState(this.h.boardPath);
    this.state = r.state;
    this.stateError = r.error;
    // Tasks of this board the manager knows (it resumed them at activation): followed to their end,
    // and a clip saved while the board was closed is copied beside it now.
    for (const shot of Object.values(this.state.shots))
      for (const t of shot.takes)
        if (t.state !== 'saved' && t.state !== 'failed' && t.taskKey && this.h.feature.manager.get(t.taskKey))
          void this.waitEnd(t.taskKey);
    await this.recheck();
  }

  /** Looks at the images on disk again (the board or the files changed). */
  async recheck(): Promise<void> {
    const b = this.h.board();
    this.fileProblems = b ? await imageFileProblems(b, this.h.boardPath) : new Map();
    this.h.changed();
  }

  problems(board: Board): Map<string, string[]> {
    const catalog = this.catalog();
    return new Map(
      board.shots.map((s, i) => [s.id, shotProblems(board, i, this.h.fallback(), this.fileProblems, catalog)]),
    );
  }

  /** The catalog in effect: the shipped one with the user's override, as the jobs send by. */
  catalog(): Catalog {
    return mediaCatalog(this.h.s.log);
  }

  /** A unit's status: the run's, else what the state file and the manager say. */
  status(u: Unit): UnitStatus {
    const inRun = this.run?.units().find((x) => unitKey(x.unit) === unitKey(u));
    if (inRun) return inRun.status;
    return this.known(u) ?? { kind: 'pending' };
  }

  private known(u: Unit): UnitStatus | undefined {
    const t = takeOf(this.state, u.shotId, u.take);
    if (!t) return undefined;
    if (t.state === 'saved') return { kind: 'saved' };
    if (t.state === 'failed') return { kind: 'failed', reason: t.error ?? vscode.l10n.t('failed') };
    const r = t.taskKey ? this.h.feature.manager.get(t.taskKey) : undefined;
    // Final but not yet recorded: `waitEnd` is recording it right now.
    if (r) return { kind: 'running' };
    return {
      kind: 'blocked',
      reason: vscode.l10n.t(
        'recorded as started ({0}) but not by this window: use Resume on its take',
        t.videoId ?? t.taskKey ?? '?',
      ),
    };
  }

  /** The record behind a take, when this window's manager has it. */
  record(shotId: string, take: number): VideoTaskRecord | undefined {
    const key = takeOf(this.state, shotId, take)?.taskKey;
    return key ? this.h.feature.manager.get(key) : undefined;
  }

  /** The price line of everything not yet generated (what Generate all would send). */
  async price(board: Board): Promise<string | undefined> {
    const units = allUnits(board, (u) => this.status(u).kind !== 'pending' && this.status(u).kind !== 'failed');
    const quotes: ClipQuote[] = await Promise.all(
      units.map(async (u) => {
        const shot = board.shots.find((s) => s.id === u.shotId);
        if (!shot) return { known: false as const };
        const e = effectiveShot(board, shot, this.h.fallback());
        const q = await this.h.feature.quote({ model: e.model, seconds: e.seconds, resolution: e.resolution });
        return q.known ? { known: true as const, quota: q.quota, amount: q.amount } : { known: false as const };
      }),
    );
    return totalLine(quotes);
  }

  /**
   * Generate shot (`shotId`) or Generate all: asks for approval naming shots, seconds, models and
   * the price, then runs. Returns what the user is told (also when nothing starts).
   */
  async generate(shotId?: string, o: { ask?: boolean; approved?: readonly ApprovedUnit[] } = {}): Promise<string> {
    const board = this.h.board();
    if (!board) return vscode.l10n.t('The board does not parse; fix it in the text editor first. Nothing was sent.');
    if (this.run && !this.isDone()) return vscode.l10n.t('This board is already generating.');
    // A tool's approval (o.approved) froze its units when it was shown: only those run.
    const given = o.approved && new Map(o.approved.map((a) => [unitKey(a), a]));
    const units = allUnits(
      board,
      (u) =>
        (shotId !== undefined && u.shotId !== shotId) ||
        !['pending', 'failed'].includes(this.status(u).kind) ||
        (given !== undefined && !given.has(unitKey(u))),
    );
    if (units.length === 0) return vscode.l10n.t('Nothing to generate: every take has a clip or is running.');
    const sum = runSummary(board, units, this.h.fallback());
    const problems = this.problems(board);
    const hosts = new Set(
      units.flatMap((u) =>
        (board.shots.find((s) => s.id === u.shotId)?.images ?? [])
          .filter((i) => /^https:/i.test(i))
          .map((i) => new URL(i).host),
      ),
    );
    // Frozen before the question: the approval stands for the requests as they are now.
    const frozen = given ? units.map((u) => given.get(unitKey(u))!) : await this.freeze(board, units);
    if (o.ask !== false) {
      const ok = await approve({
        message: vscode.l10n.t(
          'Generate {0} shot(s) of "{1}": {2} clip(s), {3} s in all, with {4}?',
          sum.shots,
          board.title,
          sum.clips,
          sum.seconds,
          sum.models.join(', '),
        ),
        detail: [
          (await this.price(board)) ?? '',
          hosts.size ? vscode.l10n.t('The gateway will fetch reference images from: {0}', [...hosts].join(', ')) : '',
          Keyframes.line(board, new Set(units.map((u) => u.shotId))),
          vscode.l10n.t('Generating is billed to your gateway account.'),
        ]
          .filter(Boolean)
          .join('\n'),
      });
      if (!ok) return vscode.l10n.t('Not generated: you declined. Nothing was sent.');
    }
    await this.startRun(board, frozen, problems);
    return vscode.l10n.t('Generating {0} clip(s).', units.length);
  }

  /** Continues the run approved before a reload: running takes are followed, the rest start when they may. */
  async resumePending(): Promise<void> {
    const board = this.h.board();
    const saved = loadApprovedRun(this.h.s.context.workspaceState, this.h.boardPath);
    if (!board || saved.length === 0) return;
    // A take that failed before the reload is not sent again on its own: that takes a new approval.
    const units = saved.filter(
      (u) =>
        board.shots.some((s) => s.id === u?.shotId && u.take >= 1 && u.take <= (s.takes ?? 1)) &&
        this.known(u)?.kind !== 'failed',
    );
    await this.startRun(board, units, this.problems(board));
  }

  private isDone(): boolean {
    return !this.run?.units().some((u) => ['pending', 'waiting', 'running'].includes(u.status.kind));
  }

  /** What an approval shown now stands for (the requests frozen, the images by content hash). */
  freeze(board: Board, units: readonly Unit[]): Promise<ApprovedUnit[]> {
    return freezeUnits(board, units, this.h.boardPath, this.h.fallback());
  }

  private async saveRun(units: readonly ApprovedUnit[] | undefined): Promise<void> {
    await saveApprovedRun(this.h.s.context.workspaceState, this.h.boardPath, units);
  }

  private async startRun(board: Board, units: ApprovedUnit[], problems: Map<string, string[]>): Promise<void> {
    this.approved = new Map(units.map((u) => [unitKey(u), u]));
    await this.saveRun(units);
    const run = new BoardRun(
      board,
      units,
      problems,
      {
        start: (u, own, frame, keys) => this.startUnit(u, own, frame, keys),
        images: async (id) => (await shotImages(this.h.board() ?? board, this.h.boardPath, id)).urls,
        keyframes: (id) => this.keys.of(id),
        lastFrame: async (dep) => {
          const file = takeOf(this.state, dep.shotId, dep.take)?.file;
          if (!file) throw new Error(vscode.l10n.t('no clip is recorded'));
          return this.h.lastFrame(file);
        },
        limit: () =>
          Math.max(
            1,
            Math.min(8, vscode.workspace.getConfiguration('gatewayStudio').get<number>('storyboard.concurrency') ?? 2),
          ),
        onUpdate: (u, st) => {
          // A unit that failed before its task existed (an image, the last frame) is recorded too.
          if (st.kind === 'failed' && !takeOf(this.state, u.shotId, u.take)?.taskKey)
            void this.setTake(u.shotId, { take: u.take, state: 'failed', error: st.reason.slice(0, 2000) });
          this.h.changed();
        },
      },
      (u) => this.known(u),
    );
    this.run = run;
    for (const u of units) {
      const st = this.known(u);
      const key = takeOf(this.state, u.shotId, u.take)?.taskKey;
      if (st?.kind === 'running' && key) run.attach(u, this.waitEnd(key));
    }
    run.step();
    void run.done.then(() => {
      if (this.run === run && !this.disposed) void this.saveRun(undefined);
      this.h.changed();
    });
  }

  private async startUnit(
    u: Unit,
    own: string[],
    frame: string | undefined,
    keys: ShotKeyframes = {},
  ): Promise<{ done: Promise<UnitEnd> }> {
    if (this.disposed) throw new Error(vscode.l10n.t('the board was closed'));
    const board = this.h.board();
    const shot = board?.shots.find((s) => s.id === u.shotId);
    if (!board || !shot) throw new Error(vscode.l10n.t('the shot is no longer on the board'));
    const { image_urls: _placeholders, ...req } = shotRequest(board, shot, this.h.fallback());
    // Exactly what is sent, compared with what was approved (the shot may have been edited since).
    const now = freezeUnit(u, req, own, dependencyOf(board, u.shotId));
    const changes = unitChanges(this.approved.get(unitKey(u)), now);
    if (changes.length) {
      await approveChange((await this.h.feature.quote(req)).line, u, changes);
      this.approved.set(unitKey(u), now);
      await this.saveRun([...this.approved.values()]);
    }
    // In shotRequest's order: the first keyframe leads, the last keyframe ends the list.
    const refs = [keys.first, ...own, frame, keys.last].filter((r): r is string => r !== undefined);
    const labels = [
      ...(keys.first ? [vscode.l10n.t('(first keyframe: {0})', shot.firstFrame?.prompt.slice(0, 80) ?? '')] : []),
      ...(shot.images ?? []),
      ...(shot.continueFrom ? [vscode.l10n.t('(last frame of the previous shot)')] : []),
      ...(keys.last ? [vscode.l10n.t('(last keyframe: {0})', shot.lastFrame?.prompt.slice(0, 80) ?? '')] : []),
    ];
    // Not priceConfirmed: like a single video, a clip above spend.confirmAbove (or of unknown price
    // while it is set) asks when it is sent, naming its figure.
    const record = await this.h.feature.start(refs.length ? { ...req, image_urls: refs } : req, labels);
    await this.setTake(u.shotId, {
      take: u.take,
      taskKey: record.key,
      state: 'creating',
      prompt: shot.prompt,
      model: req.model,
      seconds: req.seconds,
    });
    return { done: this.waitEnd(record.key) };
  }

  /** Resolves when the manager's task ends (saved and copied beside the board, or not). */
  private waitEnd(key: string): Promise<UnitEnd> {
    return new Promise((resolve) => {
      const check = (r: VideoTaskRecord | undefined, removed = false): boolean => {
        if (removed || !r) return (resolve({ ok: false, error: vscode.l10n.t('the task was removed') }), true);
        if (!FINAL.has(r.state)) return false;
        if (r.state !== 'saved') {
          const error = (r.failReason ?? r.error?.detail ?? r.state).slice(0, 2000);
          const found = this.findTake(key);
          const noted = found
            ? this.setTake(found.shotId, { ...found.take, state: 'failed', error })
            : Promise.resolve();
          void noted.then(() => resolve({ ok: false, error }));
          return true;
        }
        void this.keep(r).then(
          () => resolve({ ok: true }),
          (e: unknown) => resolve({ ok: false, error: e instanceof Error ? e.message : String(e) }),
        );
        return true;
      };
      if (check(this.h.feature.manager.get(key))) return;
      const sub = this.h.feature.onDidChange((e) => {
        if (e.record.key === key && check(e.record, e.removed)) sub.dispose();
      });
      this.subs.push(sub);
    });
  }

  /** Copies a saved clip beside the board and records it (once per take). */
  private async keep(r: VideoTaskRecord): Promise<void> {
    const found = this.findTake(r.key);
    if (!found || !r.file) throw new Error(vscode.l10n.t('the saved clip is missing'));
    const name = takeFileName(found.shotId, found.take.take);
    if (found.take.state !== 'saved' || found.take.file !== name) await keepClip(this.h.boardPath, r.file, name);
    await this.setTake(found.shotId, { ...found.take, videoId: r.videoId, state: 'saved', file: name });
  }

  private findTake(taskKey: string): { shotId: string; take: TakeRecord } | undefined {
    for (const [shotId, s] of Object.entries(this.state.shots)) {
      const take = s.takes.find((t) => t.taskKey === taskKey);
      if (take) return { shotId, take };
    }
    return undefined;
  }

  /** A manager change to one of this board's tasks: its gateway id goes into the state file at once. */
  private async follow(r: VideoTaskRecord, removed: boolean): Promise<void> {
    const found = this.findTake(r.key);
    if (!found) return;
    if (!removed && !FINAL.has(r.state) && r.videoId && found.take.videoId !== r.videoId)
      await this.setTake(found.shotId, { ...found.take, videoId: r.videoId, state: 'running' });
    this.h.changed();
  }

  async setTake(shotId: string, take: TakeRecord): Promise<void> {
    this.state = withTake(this.state, shotId, take);
    await this.persist();
  }

  /** Notes the chosen takes and writes the file (queued: writes never interleave). */
  async persist(): Promise<void> {
    const board = this.h.board();
    if (board)
      this.state = withChosen(
        this.state,
        board.shots.map((s) => ({ id: s.id, take: s.chosenTake ?? 1 })),
      );
    const snapshot = this.state;
    this.writing = this.writing.then(async () => {
      // A state file that could not be read is the user's: it is never overwritten.
      if (this.stateError) return;
      await writeState(this.h.boardPath, snapshot).catch((e: unknown) =>
        this.h.s.log.warn(`storyboard state not written: ${String(e)}`),
      );
    });
    await this.writing;
    this.h.changed();
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subs) s.dispose();
  }
}
