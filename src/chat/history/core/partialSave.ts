/**
 * Stores an answer while it streams, so a window that dies mid-answer keeps the text that had
 * arrived (the store loads it as stopped). Saves at most once per `intervalMs` while the answer
 * changes, including a trailing save for the last change; never starts a save while one is still
 * under way (a slow storage would otherwise pile up whole-conversation copies); never saves after
 * {@link PartialSaver.end}. {@link PartialSaver.touch} is called per streamed fragment, so it only
 * sets a flag and at most arms one timer.
 */
export class PartialSaver {
  private dirty = false;
  private ended = false;
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAt: number;

  /**
   * @param save stores the conversation as it is now; its rejection is the caller's to log.
   * @param intervalMs least time between the start of two saves (the turn's first save counts as
   *   one, made when this object is created).
   */
  constructor(
    private readonly save: () => Promise<void>,
    private readonly intervalMs = 2000,
    private readonly now: () => number = Date.now,
  ) {
    this.lastAt = now();
  }

  /** The answer changed: a save follows within the interval. */
  touch(): void {
    if (this.ended) return;
    this.dirty = true;
    this.schedule();
  }

  /** The turn is over: its final save is the caller's; nothing more is saved from here. */
  end(): void {
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.inFlight) return;
    const wait = Math.max(0, this.lastAt + this.intervalMs - this.now());
    this.timer = setTimeout(() => this.run(), wait);
  }

  private run(): void {
    this.timer = undefined;
    if (this.ended || !this.dirty) return;
    this.dirty = false;
    this.inFlight = true;
    this.lastAt = this.now();
    void this.save()
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = false;
        if (this.dirty && !this.ended) this.schedule();
      });
  }
}
