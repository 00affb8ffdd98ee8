/**
 * How many subagents run at once, over every call (`gatewayStudio.subagents.maxParallel`, read
 * when a run waits): the others wait their turn, and a Stop while waiting ends the wait.
 */
import { throwIfAborted } from '../../tools/core/seam';

export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: () => number) {}

  /** How many run now (tests and the card read it). */
  get running(): number {
    return this.active;
  }

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    while (this.active >= Math.max(1, Math.floor(this.max()) || 1)) {
      await this.turn(signal);
      throwIfAborted(signal);
    }
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Resolves when a run ends or `signal` aborts. */
  private turn(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(wake);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }
}
