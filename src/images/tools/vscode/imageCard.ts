/**
 * The chat card of a saved image. Described in the card's shape (the gallery's task, state saved): its workspace path, its
 * prompt and model from the sidecar beside it, and the file as a webview URI. Loaded on first use.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GalleryTask } from '../../../shared/protocol/gallery';
import type { VideoCardAction } from '../../../shared/protocol';

/** toolSchemas' SAVED_IMAGE, kept here so the schemas stay in the activation bundle's own file. */
const SAVED_IMAGE = /\.(png|jpg|webp|gif)$/i;

/** A sidecar bigger than this is not one of ours: it is not read. */
const MAX_SIDECAR = 64 * 1024;

async function sidecar(file: string): Promise<{ prompt?: unknown; model?: unknown }> {
  try {
    const side = file.replace(SAVED_IMAGE, '.json');
    if ((await fs.stat(side)).size > MAX_SIDECAR) return {};
    return JSON.parse(await fs.readFile(side, 'utf8')) as { prompt?: unknown; model?: unknown };
  } catch {
    return {};
  }
}

export async function describeImage(
  key: string,
  asWebviewUri: (fsPath: string) => string,
): Promise<GalleryTask | undefined> {
  if (!SAVED_IMAGE.test(key)) return undefined;
  const st = await fs.stat(key).catch(() => undefined);
  const meta = await sidecar(key);
  const file = vscode.workspace.asRelativePath(key, false);
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 2000) : '');
  return {
    key: file.slice(-200),
    prompt: text(meta.prompt),
    model: text(meta.model),
    images: [],
    state: st?.isFile() ? 'saved' : 'error',
    stateLabel: st?.isFile() ? vscode.l10n.t('Image saved') : vscode.l10n.t('The image file is gone'),
    createdAt: st?.mtimeMs ?? Date.now(),
    file,
    ...(st?.isFile() ? { src: asWebviewUri(key) } : {}),
    running: false,
    canResume: false,
  };
}

/** The card's Open / Reveal buttons (a key that is no saved image does nothing). */
export async function actOnImage(key: string, action: VideoCardAction): Promise<void> {
  if (!path.isAbsolute(key) || !SAVED_IMAGE.test(key)) return;
  const uri = vscode.Uri.file(key);
  if (action === 'open') await vscode.commands.executeCommand('vscode.open', uri);
  else if (action === 'reveal') await vscode.commands.executeCommand('revealInExplorer', uri);
  else await vscode.env.openExternal(uri);
}
