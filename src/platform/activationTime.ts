/**
 * How long activation took, from VS Code's own performance mark (the extension host marks
 * `code/extHost/willLoadExtensionCode/<id>` when it starts loading an extension's code for its
 * activation event) to now, when activate() returns. `npm run bench` reads the logged line.
 */
export interface ActivationTiming {
  /** From VS Code's mark to now; undefined when the host set no such mark (another host). */
  sinceLoadMs?: number;
  /** activate() alone. */
  activateMs: number;
}

/** Measures since `activateStart` (performance.now() at activate()'s first line). */
export function activationTiming(extensionId: string, activateStart: number): ActivationTiming {
  const now = performance.now();
  const mark = performance.getEntriesByName(`code/extHost/willLoadExtensionCode/${extensionId}`)[0];
  return { sinceLoadMs: mark ? now - mark.startTime : undefined, activateMs: now - activateStart };
}

/** The log line (English, for the log only): `activation: 23.4 ms from code loading, activate() 5.1 ms`. */
export function activationLine(t: ActivationTiming): string {
  const load = t.sinceLoadMs === undefined ? 'no host mark' : `${t.sinceLoadMs.toFixed(1)} ms from code loading`;
  return `activation: ${load}, activate() ${t.activateMs.toFixed(1)} ms`;
}
