/**
 * The board's export panel: the chosen take of every shot in order (none until every shot has a
 * saved chosen take, as the host's stitch requires), and its calls routed through the board's
 * protocol. The page names a shot or an export kind, never a path: the host picks the files.
 */
import type { BoardView } from '../../src/shared/protocol/storyboard';
import { ExportPanel, type ExportTake, type SaveAnswer, type StitchAnswer } from './ExportPanel';
import type { BoardStore } from './state';
import { t } from './strings';
import type { StoryboardString } from '../../src/shared/storyboardStrings';

export function chosenTakes(view: BoardView): ExportTake[] {
  const takes: ExportTake[] = [];
  for (const [i, shot] of view.shots.entries()) {
    if (!shot.savedTakes.includes(shot.chosenTake)) return [];
    // `src` is the shot id: the take's bytes come from the host (board/readTake).
    takes.push({ name: t('Shot {0}, take {1}', i + 1, shot.chosenTake), src: shot.id });
  }
  return takes;
}

export function BoardExport({ store, view }: { store: BoardStore; view: BoardView }) {
  return (
    <ExportPanel
      takes={chosenTakes(view)}
      t={(text, ...args) => t(text as StoryboardString, ...args)}
      onStitch={async () => (await store.request({ type: 'board/stitch' })) as StitchAnswer}
      onSave={async (kind, bytes) => (await store.request({ type: 'board/saveExport', kind, bytes })) as SaveAnswer}
      load={async (id) => {
        const r = await store.request({ type: 'board/readTake', id });
        if (r.ok && 'bytes' in r) return r.bytes.slice().buffer;
        throw new Error(r.ok ? 'no bytes' : r.message);
      }}
    />
  );
}
