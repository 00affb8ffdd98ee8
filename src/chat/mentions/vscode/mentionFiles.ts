/** What the mentions read of a file: its name, extension, language, text, and whether it may be read at all. */
import * as vscode from 'vscode';
import { leadsToSecret, linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import { isSecretPath } from '../../../shared/sensitiveFiles';

export const IMAGE_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function extension(uri: vscode.Uri): string {
  const b = basename(uri.path);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(dot + 1).toLowerCase() : '';
}

export function isImage(uri: vscode.Uri): boolean {
  return extension(uri) in IMAGE_MIME;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  json: 'json',
  md: 'markdown',
  py: 'python',
  rs: 'rust',
  go: 'go',
  java: 'java',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cs: 'csharp',
  sh: 'bash',
  yml: 'yaml',
  yaml: 'yaml',
  html: 'html',
  css: 'css',
  txt: '',
};

export function languageOf(uri: vscode.Uri): string {
  return LANGUAGES[extension(uri)] ?? '';
}

export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/**
 * Why a mentioned workspace entry is not attached: it is a symbolic link leading out of the
 * workspace (`notes.md -> ~/.ssh/id_rsa` in a cloned repository looks like any other file in the
 * picker), or to a secret file inside it (`notes.md -> .env`). A file named outside the workspace was chosen by the user on purpose (a drop from the
 * OS, an editor they opened) and passes. Undefined when the entry may be read.
 */
export async function linkOutNote(uri: vscode.Uri): Promise<string | undefined> {
  const name = vscode.workspace.asRelativePath(uri, false);
  // The target is not named: the note reaches the model, and where the link points is not its business.
  if ((await linkOutOfWorkspace(uri)) !== undefined)
    return vscode.l10n.t(
      '{0} is a symbolic link that leads outside the workspace, so its content is not attached. Attach the target itself if you mean to share it.',
      name,
    );
  // A harmless name that links to a secret file inside the workspace (`notes.md -> .env`); a
  // secret picked by its own name is the user's choice and passes.
  if (!isSecretPath(name) && (await leadsToSecret(uri)))
    return vscode.l10n.t(
      '{0} is a symbolic link to a file that may hold secrets, so its content is not attached. Attach that file by its own name if you mean to share it.',
      name,
    );
  return undefined;
}
