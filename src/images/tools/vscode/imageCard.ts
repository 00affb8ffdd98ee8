/**
 * A saved image in the card's shape (the gallery's task, state saved): its workspace path, its
 * prompt and model from the sidecar beside it, and the file as a webview URI. Loaded on first use.
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { GalleryTask } from '../../../shared/protocol/gallery';
import { SAVED_IMAGE } from '../core/toolSchemas';

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
