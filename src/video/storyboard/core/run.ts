/**
 * One run of a board ("Generate shot", "Generate all", or one resumed after a reload): starts the
 * units {@link planStep} allows, hands a chained unit the last frame of the clip it continues
 * from, and keeps going until nothing more can start. Starting a task is the video manager's job
 * (one record per task, persisted before its POST); this only decides when and with what.
 */
import * as l10n from '@vscode/l10n';
import type { Board } from './board';
import { dependencyOf, planStep, unitKey, type Unit, type UnitStatus } from './plan';

export interface UnitEnd {
  ok: boolean;
  error?: string;
}

/** A shot's first and last keyframes as sent. */
export interface ShotKeyframes {
  first?: string;
  last?: string;
}

export interface RunDeps {
  /**
   * Submits one unit with the shot's own reference images (data URLs or HTTPS URLs) and, for a
   * chained shot, the last frame (kept apart: the approval froze the own images, not the frame);
   * resolves once recorded.
   */
  start(unit: Unit, own: string[], frame?: string, keyframes?: ShotKeyframes): Promise<{ done: Promise<UnitEnd> }>;
  /**
   * The shot's keyframes as they are sent (data URLs or HTTPS URLs), made first when not made yet
   * (billed images, within the run's approval); throws naming the keyframe that cannot be had.
   */
  keyframes?(shotId: string): Promise<ShotKeyframes>;
  /** The shot's own reference images as they are sent (throws naming the image that cannot be read). */
  images(shotId: string): Promise<string[]>;
  /** The last frame of a saved unit's clip as a PNG data URL (decoded in the webview). */
  lastFrame(unit: Unit): Promise<string>;
  /** Most units running at once. */
  limit(): number;
  /** Any unit's status changed. */
  onUpdate(unit: Unit, status: UnitStatus): void;
}

export class BoardRun {
  private readonly statuses = new Map<string, UnitStatus>();
  private finished!: () => void;
  /** Settles when nothing runs and nothing more can start. */
  readonly done = new Promise<void>((r) => (this.finished = r));

  constructor(
    private board: Board,
    private readonly requested: Unit[],
    private readonly problems: ReadonlyMap<string, string[]>,
    private readonly deps: RunDeps,
    /** Units outside the run: their state from the state file and the manager. */
    private readonly known: (u: Unit) => UnitStatus | undefined,
  ) {
    // A unit the state file already has a clip for, or records as started by another window, is
    // never sent again (a run resumed after a reload lists the whole approved run); anything else
    // starts as pending (a failed take that is generated again, or one never sent).
    for (const u of requested) {
      const k = known(u);
      this.statuses.set(unitKey(u), k?.kind === 'saved' || k?.kind === 'blocked' ? k : { kind: 'pending' });
    }
  }

  status(u: Unit): UnitStatus {
    return this.statuses.get(unitKey(u)) ?? this.known(u) ?? { kind: 'pending' };
  }

  /** Units of the run and their statuses, board order. */
  units(): { unit: Unit; status: UnitStatus }[] {
    return this.requested.map((unit) => ({ unit, status: this.status(unit) }));
  }

  /** A unit of this run already running (resumed after a reload): its end is followed, never resent. */
  attach(u: Unit, done: Promise<UnitEnd>): void {
    this.set(u, { kind: 'running' });
    void done.then(
      (end) => this.ended(u, end),
      (e: unknown) => this.ended(u, { ok: false, error: String(e) }),
    );
  }

  /** The board was edited while running: later steps read the new order and settings. */
  update(board: Board): void {
    this.board = board;
  }

  /** Starts what may start now; call once after construction (and `attach`). */
  step(): void {
    const plan = planStep(this.board, this.requested, (u) => this.status(u), this.problems, this.deps.limit());
    for (const b of plan.blocked) this.set(b.unit, { kind: 'blocked', reason: b.reason });
    for (const u of plan.start) this.launch(u);
    for (const u of this.requested) {
      const dep = dependencyOf(this.board, u.shotId);
      if (dep && this.status(u).kind === 'pending' && this.status(dep).kind !== 'saved')
        this.set(u, { kind: 'waiting', on: dep });
    }
    // Nothing running and nothing started: whatever is left can never start.
    if (!this.anyRunning()) this.finished();
  }

  private anyRunning(): boolean {
    return this.requested.some((u) => this.status(u).kind === 'running');
  }

  private set(u: Unit, s: UnitStatus): void {
    this.statuses.set(unitKey(u), s);
    this.deps.onUpdate(u, s);
  }

  private launch(u: Unit): void {
    this.set(u, { kind: 'running' });
    void (async () => {
      const own = await this.deps.images(u.shotId);
      const keys = (await this.deps.keyframes?.(u.shotId)) ?? {};
      const dep = dependencyOf(this.board, u.shotId);
      let frame: string | undefined;
      if (dep) {
        try {
          frame = await this.deps.lastFrame(dep);
        } catch (e) {
          throw new Error(
            l10n.t(
              'the last frame of shot "{0}" take {1} could not be read: {2}',
              dep.shotId,
              dep.take,
              e instanceof Error ? e.message : String(e),
            ),
          );
        }
      }
      const { done } = await this.deps.start(u, own, frame, keys);
      return await done;
    })().then(
      (end) => this.ended(u, end),
      (e: unknown) => this.ended(u, { ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  private ended(u: Unit, end: UnitEnd): void {
    this.set(u, end.ok ? { kind: 'saved' } : { kind: 'failed', reason: end.error ?? l10n.t('failed') });
    this.step();
  }
}
