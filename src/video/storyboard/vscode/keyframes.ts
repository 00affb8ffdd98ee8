/**
 * A shot's keyframes as a run sends them. A keyframe with an `image` is read like any board image
 * (a workspace path, inside the workspace through its links, as a data URL; an HTTPS link whose
 * name resolves to a public address only). One without is generated first through the images
 * feature (`services.media.images`: the images API, saved in the images folder), and its file is
 * written into the board so another take or a later run reuses it instead of paying again.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { isSpecialAddress } from '../../../api/transport/addresses';
import { systemResolve } from '../../../api/transport/pinnedLookup';
import type { Services } from '../../../platform/services';
import { imageToDataUrl } from '../../base/vscode/images';
import type { Board, BoardEdit, Keyframe } from '../core/board';
import { isUrl, keyframeImageProblem, keyframesOf } from '../core/plan';
import type { ShotKeyframes } from '../core/run';
import { baseFolder, imageFileProblems } from './files';

export interface KeyframeHost {
  s: Services;
  boardPath: string;
  board(): Board | undefined;
  /** Writes an edit into the board (the editor's document). */
  edit?(edit: BoardEdit): Promise<boolean>;
}

/** A link's host must resolve to public addresses only: the gateway fetches it from where it is. */
async function checkLink(ref: string): Promise<void> {
  const host = new URL(ref).hostname.replace(/^\[|\]$/g, '');
  const all = await systemResolve(host).catch(() => []);
  const bad = all.find((a) => isSpecialAddress(a.address) !== false);
  if (bad)
    throw new Error(
      vscode.l10n.t('keyframe "{0}" resolves to {1}, an address in your own network or machine', ref, bad.address),
    );
}

/** The keyframe image as sent: the link itself, or the workspace file as a data URL. */
async function imageOf(h: KeyframeHost, board: Board, ref: string): Promise<string> {
  const why = keyframeImageProblem(ref);
  if (why) throw new Error(vscode.l10n.t('keyframe "{0}" {1}', ref.slice(0, 200), why));
  if (isUrl(ref)) {
    await checkLink(ref);
    return ref;
  }
  const base = baseFolder(h.boardPath);
  const onDisk = (
    await imageFileProblems({ ...board, shots: [{ id: 'k', prompt: '', images: [ref] }] }, h.boardPath)
  ).get(ref);
  if (!base || onDisk) throw new Error(vscode.l10n.t('keyframe "{0}" {1}', ref, onDisk ?? 'cannot be read'));
  return imageToDataUrl(vscode.Uri.file(path.resolve(base, ref)));
}

/**
 * Makes a shot's keyframes on first use and reads them. Two takes of one shot share one
 * generation (the promise is kept per shot, end and prompt).
 */
export class Keyframes {
  private readonly making = new Map<string, Promise<string>>();

  constructor(private readonly h: KeyframeHost) {}

  /** The keyframes a run of these shots would still generate (each billed once). */
  static toMake(board: Board, shotIds: ReadonlySet<string>): { shotId: string; keyframe: Keyframe }[] {
    return board.shots
      .filter((s) => shotIds.has(s.id))
      .flatMap((s) =>
        keyframesOf(s)
          .filter((k) => k.keyframe.image === undefined)
          .map((k) => ({ shotId: s.id, keyframe: k.keyframe })),
      );
  }

  /** The approval's line for the keyframes a run generates first ('' for none). */
  static line(board: Board, shotIds: ReadonlySet<string>): string {
    const n = Keyframes.toMake(board, shotIds).length;
    return n ? vscode.l10n.t('{0} keyframe image(s) are generated first through the images API (billed).', n) : '';
  }

  async of(shotId: string): Promise<ShotKeyframes> {
    const board = this.h.board();
    const shot = board?.shots.find((s) => s.id === shotId);
    if (!board || !shot) throw new Error(vscode.l10n.t('the shot is no longer on the board'));
    const out: ShotKeyframes = {};
    for (const { end, keyframe } of keyframesOf(shot)) {
      const ref = keyframe.image ?? (await this.make(shotId, end, keyframe));
      // A keyframe made into an images folder outside the workspace (the user's setting) is read where it is.
      out[end] = path.isAbsolute(ref) ? await imageToDataUrl(vscode.Uri.file(ref)) : await imageOf(this.h, board, ref);
    }
    return out;
  }

  /** Generates the keyframe, writes its workspace path into the board, resolves with that path. */
  private make(shotId: string, end: 'first' | 'last', k: Keyframe): Promise<string> {
    const key = `${shotId}\u0000${end}\u0000${k.prompt}\u0000${k.model ?? ''}`;
    let p = this.making.get(key);
    if (!p) {
      p = this.generate(shotId, end, k);
      this.making.set(key, p);
      // A failed generation may be tried again by the next run.
      p.catch(() => this.making.delete(key));
    }
    return p;
  }

  private async generate(shotId: string, end: 'first' | 'last', k: Keyframe): Promise<string> {
    const lib = await this.h.s.media.images?.();
    if (!lib) throw new Error(vscode.l10n.t('image generation is not available'));
    let file: string;
    try {
      file = await lib.generate({ prompt: k.prompt, ...(k.model ? { model: k.model } : {}) });
    } catch (e) {
      throw new Error(
        vscode.l10n.t('the {0} keyframe could not be generated: {1}', end, e instanceof Error ? e.message : String(e)),
      );
    }
    const base = baseFolder(this.h.boardPath);
    const rel = base ? path.relative(base, file).split(path.sep).join('/') : undefined;
    // Inside the board's folder the board keeps it; an images folder elsewhere (a user setting) is not written in.
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) {
      const field = end === 'first' ? 'firstFrame' : 'lastFrame';
      await this.h.edit?.({ kind: 'update', id: shotId, patch: { [field]: { ...k, image: rel } } });
      return rel;
    }
    return file;
  }
}
