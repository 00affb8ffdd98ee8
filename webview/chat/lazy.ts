/**
 * The parts of the chat page its first paint does not need, each a chunk loaded on first use
 * (esbuild.js splits the page at these `import()`s): the toolbar's panels, the checkpoint restore
 * panel, the tool cards (ask_user's question is a chunk of theirs), the @-picker, the cost lines, the
 * queued messages and the summary block. highlight.js is loaded the same way, by markdown.ts.
 */
import { signal, type ReadonlySignal } from '@preact/signals';

/** A module loaded once, on first use; `value` is undefined until it is here. */
export interface Lazy<T> {
  readonly value: ReadonlySignal<T | undefined>;
  /** Starts the load (once) and resolves with the module; undefined when its chunk could not load. */
  load(): Promise<T | undefined>;
}

export function lazy<T>(importer: () => Promise<T>): Lazy<T> {
  const value = signal<T | undefined>(undefined);
  let loading: Promise<T | undefined> | undefined;
  return {
    value,
    load() {
      loading ??= importer().then(
        (m) => (value.value = m),
        () => {
          // The next use tries again.
          loading = undefined;
          return undefined;
        },
      );
      return loading;
    },
  };
}

/** History, conversation settings, tools, and restoring a checkpoint. */
export const panelsCode = lazy(() => import('./components/panels'));

/** The tool cards (with a command's line and a video task's card). */
export const cardsCode = lazy(() => import('./components/ToolCard'));

/**
 * The @-picker's listbox and its fuzzy ranking: fetched when the message box first takes focus,
 * and awaited by the first `@` (models/mentions.ts ranks again once it is here).
 */
export const pickerCode = lazy(() => import('./components/MentionPicker'));

/** The agent picker, an answer's agent and its handoff buttons (`chat/agents`). */
export const agentsCode = lazy(() => import('./components/AgentPicker'));

/** The cost lines (an answer's, the conversation's) and the money formatting they use. */
export const costCode = lazy(() => import('./components/CostNote'));

/** The block of an earlier conversation's summary (after a compaction). */
export const summaryCode = lazy(() => import('./components/SummaryBlock'));

/** The queued messages above the message box and their keys (`chat/queue`): loaded after first paint. */
export const queueCode = lazy(() => import('./components/QueueList'));

/** The `/` menu of prompt files and skills, with its model: loaded when `/` is first typed. */
export const slashCode = lazy(() => import('./components/SlashMenu'));

/**
 * The context meter above the composer: its figures come from the host after the page is up, so
 * its code loads with the first of them, after the first paint.
 */
export const meterCode = lazy(() => import('./components/ContextMeter'));
