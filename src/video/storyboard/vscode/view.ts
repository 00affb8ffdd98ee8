import * as vscode from 'vscode';
import * as fs from 'node:fs';
import type { BoardView, ShotView } from '../../../shared/protocol/storyboard';
import type { GalleryTask } from '../../../shared/protocol/gallery';
import type { VideoTaskRecord } from '../../jobs/core/record';
import { familyFor } from '../../../api/catalog/catalog';
import { effectiveShot, type Board, type Keyframe, type Shot } from '../core/board';
import { dependencyOf, type Fallback, type UnitStatus } from '../core/plan';
import { takeOf, takePath } from '../core/state';
import type { BoardGeneration } from './generation';

export type ToTask = (r: VideoTaskRecord, asUri: (u: vscode.Uri) => string) => Promise<GalleryTask>;

function statusText(st: UnitStatus, order: Map<string, number>): ShotView['status'] {
  switch (st.kind) {
    case 'pending':
      return { kind: 'idle', text: vscode.l10n.t('not generated') };
    case 'waiting':
      return {
        kind: 'waiting',
        text: vscode.l10n.t('waiting for shot {0} take {1}', (order.get(st.on.shotId) ?? 0) + 1, st.on.take),
      };
    case 'running':
      return { kind: 'running', text: vscode.l10n.t('generating') };
    case 'saved':
      return { kind: 'saved', text: vscode.l10n.t('saved') };
    case 'failed':
      return { kind: 'failed', text: vscode.l10n.t('failed: {0}', st.reason) };
    case 'blocked':
      return { kind: 'blocked', text: vscode.l10n.t('cannot run: {0}', st.reason) };
  }
}

/** What the board's page shows: each shot with its problems, status and takes (as gallery cards). */
export async function boardView(
  board: Board | undefined,
  error: string | undefined,
  gen: BoardGeneration,
  o: { boardPath: string; fallback: Fallback; toTask: ToTask; asUri: (u: vscode.Uri) => string },
): Promise<BoardView> {
  if (!board) return { title: '', shots: [], running: false, ...(error ? { error } : {}) };
  const problems = gen.problems(board);
  const order = new Map(board.shots.map((s, i) => [s.id, i]));
  const shots = await Promise.all(
    board.shots.map(async (shot): Promise<ShotView> => {
      const e = effectiveShot(board, shot, o.fallback);
      const takeCards: ShotView['takeCards'] = [];
      const savedTakes: number[] = [];
      let best: UnitStatus = { kind: 'pending' };
      for (let take = 1; take <= e.takes; take++) {
        const st = gen.status({ shotId: shot.id, take });
        if (take === e.chosenTake || best.kind === 'pending') best = st;
        const rec = takeOf(gen.state, shot.id, take);
        if (!rec) continue;
        const file = rec.file ? takePath(o.boardPath, rec.file) : undefined;
        const exists = file ? fs.existsSync(file) : false;
        if (rec.state === 'saved' && exists) savedTakes.push(take);
        const r = gen.record(shot.id, take);
        const base: GalleryTask = r
          ? await o.toTask(r, o.asUri)
          : {
              key: `${shot.id}-take${take}`,
              prompt: rec.prompt ?? shot.prompt,
              model: rec.model ?? e.model,
              images: [],
              state: rec.state === 'saved' ? 'saved' : rec.state === 'failed' ? 'failed' : 'paused',
              stateLabel: rec.state,
              createdAt: 0,
              running: false,
              canResume: rec.state !== 'saved' && rec.state !== 'failed' && !!rec.videoId,
              ...(rec.videoId ? { videoId: rec.videoId } : {}),
              ...(rec.error ? { failure: rec.error } : {}),
            };
        // The card plays the copy beside the board, and only once it is recorded as saved: that is
        // what the film is made of. Never the manager's own file (its `src`): that one is outside
        // the page's resource roots, so a render between the download and the copy gave the card a
        // link that failed and left it "cannot play this video" for good (seen in the e2e).
        const { src: _managerCopy, ...card } = base;
        takeCards.push({
          ...card,
          take,
          ...(rec.file ? { file: vscode.workspace.asRelativePath(file ?? rec.file, false) } : {}),
          ...(rec.state === 'saved' && exists && file ? { src: o.asUri(vscode.Uri.file(file)) } : {}),
        });
      }
      const own = problems.get(shot.id) ?? [];
      const status =
        own.length && best.kind === 'pending'
          ? { kind: 'blocked' as const, text: vscode.l10n.t('cannot run: {0}', own.join('; ')) }
          : statusText(best, order);
      const dep = dependencyOf(board, shot.id);
      return {
        id: shot.id,
        prompt: shot.prompt,
        settings: [e.model, `${e.seconds} s`, e.aspectRatio, e.resolution].join(' · '),
        continues: !!dep,
        images: shot.images ?? [],
        ...keyframeViews(shot),
        endFrame: familyFor(gen.catalog(), e.model, 'video')?.lastFrame !== undefined,
        takes: e.takes,
        chosenTake: e.chosenTake,
        problems: own,
        status,
        takeCards,
        savedTakes,
      };
    }),
  );
  const running = !!gen.run?.units().some((u) => ['pending', 'waiting', 'running'].includes(u.status.kind));
  const price = await gen.price(board);
  return {
    title: board.title,
    shots,
    running,
    ...(price ? { price } : {}),
    ...(gen.stateError ? { stateError: gen.stateError } : {}),
  };
}

/** A shot's keyframes as its card shows them. */
function keyframeViews(shot: Shot): Pick<ShotView, 'firstFrame' | 'lastFrame'> {
  const v = (k: Keyframe) => ({ prompt: k.prompt, ...(k.image ? { image: k.image } : {}) });
  return {
    ...(shot.firstFrame ? { firstFrame: v(shot.firstFrame) } : {}),
    ...(shot.lastFrame ? { lastFrame: v(shot.lastFrame) } : {}),
  };
}
