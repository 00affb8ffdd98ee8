/**
 * What a board's shots need before anything is sent, and in which order they run: a shot that
 * continues from the previous one waits for that shot's chosen take; the others start at once, up
 * to the concurrency setting. Every problem names its shot, and one shot's problem stops only that
 * shot and the shots chained to it.
 */
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { referenceImageProblem, validateVideoRequest, type VideoCreateRequest } from '../../../api/video/videoRules';
import { familyFor, shippedCatalog, type Catalog } from '../../../api/catalog/catalog';
import { isPrivateHost } from '../../../api/transport/addresses';
import { effectiveShot, type Board, type Keyframe, type Shot } from './board';

export interface Fallback {
  model: string;
  seconds: number;
  resolution: string;
  aspectRatio: string;
}

/** One clip to make: a take of a shot. */
export interface Unit {
  shotId: string;
  take: number;
}
export const unitKey = (u: Unit): string => `${u.shotId}#${u.take}`;

/** A stand-in reference image: the rules count images, the data comes at the start. */
const PLACEHOLDER = 'data:image/png;base64,AAAA';

export const isUrl = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-z]:[\\/]/i.test(ref);

/** Why a workspace path cannot be a reference image by its name alone (files are checked by the editor). */
export function pathProblem(ref: string): string | undefined {
  if (path.isAbsolute(ref) || /^[a-z]:/i.test(ref) || ref.startsWith('\\'))
    return l10n.t('is an absolute path: a board names images relative to its workspace folder');
  const n = path.posix.normalize(ref.replace(/\\/g, '/'));
  if (n === '..' || n.startsWith('../')) return l10n.t('leads out of the workspace');
  return undefined;
}

/**
 * Why a keyframe's `image` cannot be used: a path leading out (as any board image), or a link that
 * is not HTTPS, carries credentials or names a host in the user's network (the gateway would fetch
 * it from there). A name that only resolves to such an address is refused when the shot starts.
 */
export function keyframeImageProblem(ref: string): string | undefined {
  if (!isUrl(ref)) return pathProblem(ref);
  let u: URL;
  try {
    u = new URL(ref);
  } catch {
    return l10n.t('is not a valid URL');
  }
  if (u.protocol !== 'https:')
    return l10n.t('is not an HTTPS link: a keyframe is a workspace image or a public HTTPS link');
  if (u.username || u.password) return l10n.t('carries credentials in the link');
  if (isPrivateHost(u.hostname)) return l10n.t('points into your own machine or network ({0})', u.hostname);
  return undefined;
}

/** The keyframes a shot has: which end, and the keyframe. */
export function keyframesOf(shot: Shot): { end: 'first' | 'last'; keyframe: Keyframe }[] {
  return [
    ...(shot.firstFrame ? [{ end: 'first' as const, keyframe: shot.firstFrame }] : []),
    ...(shot.lastFrame ? [{ end: 'last' as const, keyframe: shot.lastFrame }] : []),
  ];
}

/**
 * What a shot's keyframes break: a first keyframe with continueFrom (a shot has one first frame),
 * a last frame for a model whose catalog family takes none, a last frame alone where the family
 * needs a first, and a keyframe image that cannot be used.
 */
function keyframeProblems(board: Board, shot: Shot, fallback: Fallback, catalog: Catalog): string[] {
  const out: string[] = [];
  if (shot.firstFrame && shot.continueFrom === 'previous')
    out.push(l10n.t("starts from both a keyframe and the previous shot's last frame: keep one"));
  if (shot.lastFrame) {
    const model = effectiveShot(board, shot, fallback).model;
    const f = familyFor(catalog, model, 'video');
    if (!f?.lastFrame)
      out.push(l10n.t('{0} takes no last frame (the model catalog lists none for it): remove lastFrame', model));
    else if (f.lastFrame.needsFirst && !shot.firstFrame && shot.continueFrom !== 'previous')
      out.push(l10n.t('{0} takes a last frame only with a first frame: add firstFrame or continueFrom', f.name));
  }
  for (const { end, keyframe } of keyframesOf(shot)) {
    const p = keyframe.image === undefined ? undefined : keyframeImageProblem(keyframe.image);
    if (p) out.push(l10n.t('{0} keyframe "{1}" {2}', end, keyframe.image!.slice(0, 200), p));
  }
  return out;
}

/** The request a shot makes, with the reference images it will carry (local ones still as names). */
export function shotRequest(board: Board, shot: Shot, fallback: Fallback): VideoCreateRequest {
  const e = effectiveShot(board, shot, fallback);
  // The first frame leads the list; the previous clip's frame follows the shot's own images, as before.
  const refs = [
    ...(shot.firstFrame ? [PLACEHOLDER] : []),
    ...(shot.images ?? []),
    ...(shot.continueFrom === 'previous' ? [PLACEHOLDER] : []),
    ...(shot.lastFrame ? [PLACEHOLDER] : []),
  ];
  const req: VideoCreateRequest = {
    model: e.model,
    prompt: shot.prompt,
    seconds: e.seconds,
    resolution: e.resolution,
    aspect_ratio: e.aspectRatio,
  };
  if (refs.length) req.image_urls = refs;
  return req;
}

/**
 * Everything wrong with a shot before anything is sent: the wizard's model rules, a chain with no
 * previous shot, an image path leading out, a URL that is not HTTPS, and what the editor found on
 * disk (`fileProblems`: image path -> problem, e.g. missing or a link leading out).
 */
export function shotProblems(
  board: Board,
  index: number,
  fallback: Fallback,
  fileProblems: ReadonlyMap<string, string> = new Map(),
  catalog: Catalog = shippedCatalog(),
): string[] {
  const shot = board.shots[index];
  if (!shot) return [];
  const out: string[] = [];
  if (shot.continueFrom === 'previous' && index === 0)
    out.push(l10n.t('continues from the previous shot, but it is the first shot'));
  for (const ref of shot.images ?? []) {
    const p = isUrl(ref) ? referenceImageProblem(ref) : (pathProblem(ref) ?? fileProblems.get(ref));
    if (p) out.push(l10n.t('image "{0}" {1}', ref.slice(0, 200), p));
  }
  out.push(...keyframeProblems(board, shot, fallback, catalog));
  for (const { keyframe } of keyframesOf(shot)) {
    const p = keyframe.image === undefined ? undefined : fileProblems.get(keyframe.image);
    if (p) out.push(l10n.t('keyframe "{0}" {1}', keyframe.image!.slice(0, 200), p));
  }
  const req = shotRequest(board, shot, fallback);
  // Local images are checked above; the rules see stand-ins so only counts and formats of URLs count.
  req.image_urls = req.image_urls?.map((r) => (isUrl(r) ? r : PLACEHOLDER));
  for (const e of validateVideoRequest(req).errors) if (e.rule !== 'reference-image-format') out.push(e.message);
  return out;
}

/** The unit a chained shot's units wait for: the previous shot's chosen take. */
export function dependencyOf(board: Board, shotId: string): Unit | undefined {
  const i = board.shots.findIndex((s) => s.id === shotId);
  const shot = board.shots[i];
  const prev = board.shots[i - 1];
  if (!shot || shot.continueFrom !== 'previous' || !prev) return undefined;
  return { shotId: prev.id, take: prev.chosenTake ?? 1 };
}

export type UnitStatus =
  | { kind: 'pending' }
  | { kind: 'waiting'; on: Unit }
  | { kind: 'running' }
  | { kind: 'saved' }
  | { kind: 'failed'; reason: string }
  | { kind: 'blocked'; reason: string };

export interface Step {
  /** Units to start now, in board order. */
  start: Unit[];
  /** Units that cannot run, with the reason naming the shot that stops them. */
  blocked: { unit: Unit; reason: string }[];
}

/**
 * The next step of a run. `requested` are the units the user asked for (board order); `status`
 * knows every unit the run or the state file has seen (a dependency outside the run that is
 * already saved counts as saved). `problems` per shot id stop that shot.
 */
export function planStep(
  board: Board,
  requested: readonly Unit[],
  status: (u: Unit) => UnitStatus,
  problems: ReadonlyMap<string, string[]>,
  limit: number,
): Step {
  const start: Unit[] = [];
  const blocked: { unit: Unit; reason: string }[] = [];
  let running = requested.filter((u) => status(u).kind === 'running').length;
  const order = new Map(board.shots.map((s, i) => [s.id, i]));
  const name = (id: string) => l10n.t('shot {0} ("{1}")', (order.get(id) ?? 0) + 1, id);
  for (const u of requested) {
    if (status(u).kind !== 'pending' && status(u).kind !== 'waiting') continue;
    const own = problems.get(u.shotId);
    if (own?.length) {
      blocked.push({ unit: u, reason: own.join('; ') });
      continue;
    }
    const dep = dependencyOf(board, u.shotId);
    if (dep) {
      const d = status(dep);
      const depBlocked = blocked.find((b) => b.unit.shotId === dep.shotId && b.unit.take === dep.take);
      if (d.kind === 'failed' || d.kind === 'blocked' || depBlocked) {
        blocked.push({
          unit: u,
          reason: l10n.t('continues from {0} take {1}, which failed or cannot run', name(dep.shotId), dep.take),
        });
        continue;
      }
      if (d.kind !== 'saved') {
        const inRun = requested.some((r) => r.shotId === dep.shotId && r.take === dep.take);
        if (!inRun && d.kind !== 'running') {
          blocked.push({
            unit: u,
            reason: l10n.t(
              'continues from {0} take {1}, which has no clip yet: generate it first',
              name(dep.shotId),
              dep.take,
            ),
          });
        }
        continue;
      }
    }
    if (running >= Math.max(1, limit)) continue;
    running++;
    start.push(u);
  }
  return { start, blocked };
}

/** Every take of every shot in board order (Generate all), without those `skip` says are done. */
export function allUnits(board: Board, skip: (u: Unit) => boolean = () => false): Unit[] {
  const out: Unit[] = [];
  for (const s of board.shots)
    for (let t = 1; t <= (s.takes ?? 1); t++) if (!skip({ shotId: s.id, take: t })) out.push({ shotId: s.id, take: t });
  return out;
}

/** What the approval names: shots, clips, seconds in all and the models. */
export function runSummary(
  board: Board,
  units: readonly Unit[],
  fallback: Fallback,
): { shots: number; clips: number; seconds: number; models: string[] } {
  const shots = new Set(units.map((u) => u.shotId));
  let seconds = 0;
  const models = new Set<string>();
  for (const u of units) {
    const shot = board.shots.find((s) => s.id === u.shotId);
    if (!shot) continue;
    const e = effectiveShot(board, shot, fallback);
    seconds += e.seconds;
    models.add(e.model);
  }
  return { shots: shots.size, clips: units.length, seconds, models: [...models] };
}
