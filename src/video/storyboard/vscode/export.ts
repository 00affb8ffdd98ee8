/**
 * The host's side of a board's export: joins the chosen takes without re-encoding (the core's
 * stitch, loaded on first use with mediabunny) and writes what the page's export panel returns.
 * The page names a kind of export, never a path: files go to the board's outputs folder inside
 * its workspace folder, never over an existing file, and only clips inside that outputs folder
 * are read (the state file that lists them comes from the repository).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportTarget, isExportKind, isInside, outputsFolder, refuseBytes } from '../core/stitchOutput';
import { writeProblem } from './files';

export type StitchReply =
  | { ok: true; file: string; durationSeconds: number }
  | { ok: false; kind: 'mismatch'; message: string; index: number; parameter: string }
  | { ok: false; kind: 'undecodable'; message: string; indexes: number[] }
  | { ok: false; kind: 'refused'; message: string };

export type SaveReply = { ok: true; file: string } | { ok: false; message: string };

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The board's workspace folder and outputs folder, or why the board cannot export. */
function placeOf(board: vscode.Uri): { outputs: string } | string {
  if (board.scheme !== 'file') return vscode.l10n.t('Exports are saved for boards on disk only.');
  if (!vscode.workspace.getWorkspaceFolder(board)) {
    return vscode.l10n.t(
      'Exports are saved inside the workspace: open the folder that holds {0}.',
      path.basename(board.fsPath),
    );
  }
  try {
    return { outputs: outputsFolder(board.fsPath) };
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function freeTarget(board: vscode.Uri, kind: Parameters<typeof exportTarget>[1]): Promise<vscode.Uri> {
  const taken = new Set<string>();
  // exportTarget asks synchronously: probe the first names ahead.
  const folder = outputsFolder(board.fsPath);
  for (let n = 1; n <= 50; n++) {
    const p = exportTarget(board.fsPath, kind, (c) => taken.has(c));
    if (await exists(vscode.Uri.file(p))) taken.add(p);
    else return vscode.Uri.file(p);
  }
  throw new Error(vscode.l10n.t('Too many exports in {0}: remove some first.', path.basename(folder)));
}

/** Joins `clips` (in order) into the board's film.mp4 without re-encoding, or says why not. */
export async function stitchBoard(
  board: vscode.Uri,
  clips: Array<{ name: string; uri: vscode.Uri }>,
): Promise<StitchReply> {
  const place = placeOf(board);
  if (typeof place === 'string') return { ok: false, kind: 'refused', message: place };
  for (const c of clips) {
    // By name and then by where its links lead: `x.storyboard/a-take1.mp4 -> ~/.ssh/id_rsa` is not read.
    if (c.uri.scheme !== 'file' || !isInside(place.outputs, c.uri.fsPath) || (await writeProblem(c.uri.fsPath))) {
      return {
        ok: false,
        kind: 'refused',
        message: vscode.l10n.t('{0} is outside the board outputs folder, so it is not read.', c.name),
      };
    }
  }
  const bytes: Uint8Array[] = [];
  const unreadable: number[] = [];
  for (const [i, c] of clips.entries()) {
    try {
      bytes.push(await vscode.workspace.fs.readFile(c.uri));
    } catch {
      unreadable.push(i);
      bytes.push(new Uint8Array());
    }
  }
  const { stitchClips } = await import('../core/stitch');
  const result = await stitchClips(bytes, { names: clips.map((c) => c.name) });
  if (!result.ok) {
    if (result.kind === 'mismatch') {
      return { ok: false, kind: 'mismatch', message: result.message, index: result.index, parameter: result.parameter };
    }
    if (result.kind === 'undecodable') {
      return { ok: false, kind: 'undecodable', message: result.message, indexes: result.clips.map((c) => c.index) };
    }
    return { ok: false, kind: 'refused', message: result.message };
  }
  const target = await freeTarget(board, 'film');
  const why = await writeProblem(target.fsPath);
  if (why) return { ok: false, kind: 'refused', message: why };
  await vscode.workspace.fs.writeFile(target, result.bytes);
  return { ok: true, file: vscode.workspace.asRelativePath(target), durationSeconds: result.durationSeconds };
}

/** Writes an export the page made (a re-encoded film or a GIF) into the board's outputs folder. */
export async function saveBoardExport(board: vscode.Uri, kind: unknown, bytes: Uint8Array): Promise<SaveReply> {
  if (!isExportKind(kind) || kind === 'film') return { ok: false, message: vscode.l10n.t('Unknown export kind.') };
  const place = placeOf(board);
  if (typeof place === 'string') return { ok: false, message: place };
  const refused = refuseBytes(kind, bytes);
  if (refused) return { ok: false, message: vscode.l10n.t('Not saved: {0}.', refused) };
  const target = await freeTarget(board, kind);
  // A committed `x.storyboard -> ~/somewhere` link would put the export outside the workspace.
  const why = await writeProblem(target.fsPath);
  if (why) return { ok: false, message: why };
  await vscode.workspace.fs.writeFile(target, bytes);
  return { ok: true, file: vscode.workspace.asRelativePath(target) };
}
