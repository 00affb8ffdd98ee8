import * as vscode from 'vscode';
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { checkInside, placeProblem } from '../../../files/insideWorkspace';
import { imageToDataUrl } from '../../base/vscode/images';
import type { Board } from '../core/board';
import { isUrl, keyframesOf, pathProblem } from '../core/plan';
import { emptyState, outputsDirFor, parseState, printState, statePathFor, type BoardState } from '../core/state';

/** The file-system folders of the open workspace (what "inside the workspace" means). */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The folder a board's image paths are relative to: the workspace folder holding the board. */
export function baseFolder(boardPath: string): string | undefined {
  const f = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(boardPath));
  return f?.uri.scheme === 'file' ? f.uri.fsPath : undefined;
}

/**
 * What is wrong on disk with each local image of the board: missing, not a file, or (followed
 * through its links) outside the workspace. A hostile board's `docs/ref.png -> ~/.ssh/id_rsa` is
 * caught here, before anything is read.
 */
export async function imageFileProblems(board: Board, boardPath: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const base = baseFolder(boardPath);
  const roots = workspaceRoots();
  const keyframeImages = board.shots.flatMap((s) => keyframesOf(s).flatMap((k) => k.keyframe.image ?? []));
  for (const ref of new Set([...board.shots.flatMap((s) => s.images ?? []), ...keyframeImages])) {
    if (isUrl(ref) || pathProblem(ref)) continue;
    if (!base) {
      out.set(ref, vscode.l10n.t('cannot be found: the board is not in an open workspace folder'));
      continue;
    }
    const abs = path.resolve(base, ref);
    const c = await checkInside(abs, roots).catch(() => undefined);
    if (!c || !c.inside) out.set(ref, vscode.l10n.t('leads out of the workspace (through a symbolic link)'));
    else if (!c.exists) out.set(ref, vscode.l10n.t('does not exist'));
    else if (
      !(await fs.stat(abs).then(
        (st) => st.isFile(),
        () => false,
      ))
    )
      out.set(ref, vscode.l10n.t('is not a file'));
  }
  return out;
}

/** A shot's images as sent: local files as data URLs (checked again as they are read), URLs as they are. */
export async function shotImages(
  board: Board,
  boardPath: string,
  shotId: string,
): Promise<{ urls: string[]; labels: string[] }> {
  const shot = board.shots.find((s) => s.id === shotId);
  const base = baseFolder(boardPath);
  const urls: string[] = [];
  const labels: string[] = [];
  for (const ref of shot?.images ?? []) {
    labels.push(ref);
    if (isUrl(ref)) urls.push(ref);
    else {
      if (!base || pathProblem(ref)) throw new Error(vscode.l10n.t('image "{0}" cannot be read', ref));
      urls.push(await imageToDataUrl(vscode.Uri.file(path.resolve(base, ref))));
    }
  }
  return { urls, labels };
}

/**
 * Why the board's state file, a clip or an export must not be written or read there: a link that
 * leads out of the workspace (a hostile `x.storyboard -> ~/.ssh` would have clips copied over
 * keys) or into `.git/` or `.vscode/`, dangling links included (`x.storyboard.state.json ->
 * .git/hooks/pre-commit` would create a hook). The one rule of api/insideWorkspace.ts.
 */
export async function writeProblem(target: string): Promise<string | undefined> {
  const why = await placeProblem(target, workspaceRoots()).catch(() => ({ kind: 'outside' as const }));
  if (!why) return undefined;
  return why.kind === 'outside'
    ? vscode.l10n.t('{0} leads out of the workspace; nothing is written there.', path.basename(target))
    : vscode.l10n.t('{0} leads into {1}/; nothing is written or read there.', path.basename(target), why.dir);
}

export async function readState(boardPath: string): Promise<{ state: BoardState; error?: string }> {
  // A state file that links elsewhere is neither read nor (the error keeps it so) ever written.
  const why = await writeProblem(statePathFor(boardPath));
  if (why) return { state: emptyState(), error: why };
  const text = await fs.readFile(statePathFor(boardPath), 'utf8').catch(() => undefined);
  return parseState(text);
}

/** Writes the state file; a broken one is never replaced (the caller said so to the user). */
export async function writeState(boardPath: string, state: BoardState): Promise<void> {
  const file = statePathFor(boardPath);
  const why = await writeProblem(file);
  if (why) throw new Error(why);
  // Written beside and renamed over: a reader (the board's load, a second follower, a crash) never
  // sees half a file, which would read as broken and then never be replaced.
  const part = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.part`;
  try {
    await fs.writeFile(part, printState(state));
    await fs.rename(part, file);
  } catch (e) {
    await fs.rm(part, { force: true });
    throw e;
  }
}

/** Copies a saved clip into the board's outputs folder under the take's name. */
export async function keepClip(boardPath: string, from: string, name: string): Promise<string> {
  const dir = outputsDirFor(boardPath);
  const why = await writeProblem(path.join(dir, name));
  if (why) throw new Error(why);
  await fs.mkdir(dir, { recursive: true });
  const dest = path.join(dir, name);
  // Copied under a temporary name of its own and renamed: a reader never sees half a clip under the
  // take's name, and two followers of one task (the board's load and its resumed run) never collide.
  const part = `${dest}.${process.pid}-${Math.random().toString(36).slice(2)}.part`;
  try {
    await fs.copyFile(from, part);
    await fs.rename(part, dest);
  } catch (e) {
    await fs.rm(part, { force: true });
    throw e;
  }
  return dest;
}
