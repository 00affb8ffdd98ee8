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
  /** Loading the bundle (VS Code's will/didLoadExtensionCode marks), when both are there. */
  codeLoadMs?: number;
  /** From the code being loaded to activate() being called (the extension context, storage). */
  contextMs?: number;
}

/** Measures since `activateStart` (performance.now() at activate()'s first line). */
export function activationTiming(extensionId: string, activateStart: number): ActivationTiming {
  const now = performance.now();
  const name = `code/extHost/willLoadExtensionCode/${extensionId}`;
  const vscodeMarks = (
    globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }
  ).MonacoPerformanceMarks?.getMarks();
  const at = (n: string) => vscodeMarks?.filter((m) => m.name === n).at(-1)?.startTime;
  const wall = at(name);
  const loaded = at(`code/extHost/didLoadExtensionCode/${extensionId}`);
  const called = at(`code/extHost/willActivateExtension/${extensionId}`);
  const perf = performance.getEntriesByName(name)[0];
  const sinceLoadMs = wall !== undefined ? Date.now() - wall : perf ? now - perf.startTime : undefined;
  return {
    sinceLoadMs,
    activateMs: now - activateStart,
    codeLoadMs: wall !== undefined && loaded !== undefined ? loaded - wall : undefined,
    contextMs: loaded !== undefined && called !== undefined ? called - loaded : undefined,
  };
}

/** The log line (English, for the log only): `activation: 23.4 ms from code loading, activate() 5.1 ms`. */
export function activationLine(t: ActivationTiming): string {
  const load = t.sinceLoadMs === undefined ? 'no host mark' : `${t.sinceLoadMs.toFixed(1)} ms from code loading`;
  const parts =
    t.codeLoadMs !== undefined && t.contextMs !== undefined
      ? ` (loading the code ${t.codeLoadMs} ms, then ${t.contextMs} ms until activate() was called)`
      : '';
  return `activation: ${load}, activate() ${t.activateMs.toFixed(1)} ms${parts}`;
}
