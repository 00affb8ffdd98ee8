/**
 * How long activation took, from VS Code's own performance mark (the extension host marks
 * `code/extHost/willLoadExtensionCode/<id>` when it starts loading an extension's code for its
 * activation event) to now, when activate() returns. `npm run bench` reads the logged line.
 * In a Node extension host VS Code keeps its marks in `globalThis.MonacoPerformanceMarks`
 * (wall-clock milliseconds), not in `performance`; both are looked at.
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
  const name = `code/extHost/willLoadExtensionCode/${extensionId}`;
  const vscodeMarks = (
    globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }
  ).MonacoPerformanceMarks?.getMarks();
  const wall = vscodeMarks?.filter((m) => m.name === name).at(-1);
  const perf = performance.getEntriesByName(name)[0];
  const sinceLoadMs = wall ? Date.now() - wall.startTime : perf ? now - perf.startTime : undefined;
  return { sinceLoadMs, activateMs: now - activateStart };
}

/** The log line (English, for the log only): `activation: 23.4 ms from code loading, activate() 5.1 ms`. */
export function activationLine(t: ActivationTiming): string {
  const load = t.sinceLoadMs === undefined ? 'no host mark' : `${t.sinceLoadMs.toFixed(1)} ms from code loading`;
  return `activation: ${load}, activate() ${t.activateMs.toFixed(1)} ms`;
}
