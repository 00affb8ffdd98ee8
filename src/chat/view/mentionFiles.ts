/** What the mentions read of a file's name: its extension, whether it is an image, its language. */
import * as vscode from 'vscode';

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
