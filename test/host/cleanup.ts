// One place that remembers what a run started (process groups, temp folders, servers) and undoes
// it on every exit path: normal end, thrown error, SIGINT, SIGTERM. Stray code-server processes or
// temp folders from a crashed run would otherwise pile up on a shared CI machine.
import { rmSync } from 'node:fs';

type Undo = () => Promise<void> | void;

const undos: { name: string; fn: Undo }[] = [];
let installed = false;
let running: Promise<void> | undefined;
let stopping = false;

/** Throws once a signal asked the run to stop, so nothing new is started during cleanup. */
export function assertNotStopping(): void {
  if (stopping) throw new Error('the run is stopping (signal received); not starting anything new');
}

/** Registers `fn` to run at cleanup (last registered runs first); returns a function that runs it now. */
export function onCleanup(name: string, fn: Undo): () => Promise<void> {
  installSignalHandlers();
  const entry = { name, fn };
  undos.push(entry);
  return async () => {
    const i = undos.indexOf(entry);
    if (i >= 0) {
      undos.splice(i, 1);
      await runOne(entry);
    }
  };
}

/** Registers a folder to delete at cleanup. */
export function removeAtCleanup(dir: string): void {
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
}

async function runOne(e: { name: string; fn: Undo }): Promise<void> {
  try {
    await e.fn();
  } catch (err) {
    process.stderr.write(`cleanup "${e.name}" failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

/** Undoes everything registered, newest first. Safe to call more than once. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (undos.length) {
      const e = undos.pop();
      if (e) await runOne(e);
    }
  })();
  const p = running;
  return p.finally(() => {
    if (running === p) running = undefined;
  });
}

function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // `on`, not `once`: a second signal (Ctrl-C reaches both npm start's launcher, which forwards
    // it, and this process) must not fall back to the default action and skip the cleanup.
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${sig}: stopping everything this run started\n`);
      void cleanupAll().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    });
  }
}
