/**
 * Keeps the log at its end while an answer grows, without reading `scrollHeight` after every
 * write: CSS scroll anchoring does it (styles.css lets only the `.log-end` marker be the log's
 * anchor, so while the marker is in view the browser keeps it there as text is added above it).
 * A user who scrolls up takes the marker out of view; nothing is anchored then, and the text
 * they read stays where it is. An IntersectionObserver on the marker tells which of the two
 * holds, and covers the one case anchoring skips: a log still at offset 0 that starts to
 * overflow.
 */

/** How long after the user's last wheel, key or touch a marker leaving view counts as theirs. */
const USER_MS = 600;

export class ScrollPin {
  private log: HTMLElement | undefined;
  private end: HTMLElement | undefined;
  private observer: IntersectionObserver | undefined;
  private pinned = true;
  private userAt = -Infinity;
  private pointerDown = false;
  private lastTop = 0;
  private readonly onUser = (): void => void (this.userAt = performance.now());
  /**
   * A scroll up away from the end is someone reading back, whatever moved it: a wheel, but also
   * focus moving to an earlier element, find in page, a screen reader, or a test's scrollIntoView.
   * Growth at the end never moves the log up.
   */
  private readonly onScroll = (): void => {
    const log = this.log;
    if (!log) return;
    const up = log.scrollTop < this.lastTop - 1;
    this.lastTop = log.scrollTop;
    if (up && log.scrollTop + log.clientHeight < log.scrollHeight - 2) this.onUser();
  };
  private readonly onPointer = (e: Event): void => {
    this.pointerDown = e.type === 'pointerdown';
    this.onUser();
  };

  /** The log and its end marker (both rendered by MessageList); `undefined` when unmounted. */
  attach(log: HTMLElement | undefined, end: HTMLElement | undefined): void {
    if (log === this.log && end === this.end) return;
    this.detach();
    if (!log || !end) return;
    this.log = log;
    this.end = end;
    this.lastTop = log.scrollTop;
    log.addEventListener('scroll', this.onScroll, { passive: true });
    for (const type of ['wheel', 'touchmove', 'keydown']) log.addEventListener(type, this.onUser, { passive: true });
    for (const type of ['pointerdown', 'pointerup', 'pointercancel']) log.addEventListener(type, this.onPointer);
    this.observer = new IntersectionObserver((entries) => this.seen(entries.at(-1)), { root: log });
    this.observer.observe(end);
  }

  /** Whether the log follows its end. */
  get following(): boolean {
    return this.pinned;
  }

  /**
   * Scrolls to the end if the log follows it; `force` makes it follow again (the user sent a
   * message, or another conversation is shown). Once per message, not per delta.
   */
  toEnd(force = false): void {
    if (force) this.pinned = true;
    if (this.pinned && this.log) this.log.scrollTop = this.log.scrollHeight;
  }

  private seen(entry: IntersectionObserverEntry | undefined): void {
    if (!entry || !this.log) return;
    if (entry.isIntersecting) {
      this.pinned = true;
      return;
    }
    const user = this.pointerDown || performance.now() - this.userAt < USER_MS;
    // Not the user: the log grew or shrank where anchoring could not hold the marker.
    if (this.pinned && !user) this.log.scrollTop = this.log.scrollHeight;
    else this.pinned = false;
  }

  private detach(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    const log = this.log;
    if (log) {
      log.removeEventListener('scroll', this.onScroll);
      for (const type of ['wheel', 'touchmove', 'keydown']) log.removeEventListener(type, this.onUser);
      for (const type of ['pointerdown', 'pointerup', 'pointercancel']) log.removeEventListener(type, this.onPointer);
    }
    this.log = undefined;
    this.end = undefined;
  }
}

/** The page's one log. */
export const scrollPin = new ScrollPin();
