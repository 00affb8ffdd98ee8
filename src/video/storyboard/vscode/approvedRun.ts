import type * as vscode from 'vscode';
import type { Board } from '../core/board';
import { freezeUnit, parseApprovedRun, type ApprovedUnit } from '../core/approved';
import { dependencyOf, shotRequest, type Fallback, type Unit } from '../core/plan';
import { shotImages } from './files';
import { loadState, saveState, storyboardRunsKey } from '../../../contracts/persistedState/video';

/**
 * Each unit's request as it would be sent now, its images read and hashed: what an approval shown
 * now stands for. An image that cannot be read is frozen as unreadable (the shot is blocked anyway,
 * and an image that appears later is not what was approved).
 */
export async function freezeUnits(
  board: Board,
  units: readonly Unit[],
  boardPath: string,
  fallback: Fallback,
): Promise<ApprovedUnit[]> {
  const images = new Map<string, Promise<ReadonlyArray<string | undefined>>>();
  const out: ApprovedUnit[] = [];
  for (const u of units) {
    const shot = board.shots.find((s) => s.id === u.shotId);
    if (!shot) continue;
    let own = images.get(shot.id);
    if (!own) {
      own = shotImages(board, boardPath, shot.id).then(
        (r) => r.urls,
        () => (shot.images ?? []).map(() => undefined),
      );
      images.set(shot.id, own);
    }
    const { image_urls: _placeholders, ...req } = shotRequest(board, shot, fallback);
    out.push(freezeUnit(u, req, await own, dependencyOf(board, u.shotId)));
  }
  return out;
}

export function loadApprovedRun(ws: vscode.Memento, boardPath: string): ApprovedUnit[] {
  return parseApprovedRun(loadState(ws, storyboardRunsKey)[boardPath]);
}

export async function saveApprovedRun(
  ws: vscode.Memento,
  boardPath: string,
  units: readonly ApprovedUnit[] | undefined,
): Promise<void> {
  const runs = { ...loadState(ws, storyboardRunsKey) };
  if (units?.length) runs[boardPath] = units;
  else delete runs[boardPath];
  await saveState(ws, storyboardRunsKey, runs);
}
