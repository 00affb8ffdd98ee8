import * as vscode from 'vscode';
import { webviewHtml } from '../shared/webviewHtml';

/** A fresh CSP nonce per page load: 18 random bytes, base64 letters and digits only. */
function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The HTML of one of our pages (dist/<bundle>.js and .css) for `webview`, under the shared CSP
 * (src/shared/webviewHtml.ts) with media allowed: every page plays saved clips. `module` pages
 * load their chunks with import() (see esbuild.js pageBuild).
 */
export function pageHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  o: { bundle: string; title: string; module?: boolean },
): string {
  const dist = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', file)).toString();
  return webviewHtml({
    cspSource: webview.cspSource,
    nonce: nonce(),
    scriptUri: dist(`${o.bundle}.js`),
    styleUri: dist(`${o.bundle}.css`),
    title: o.title,
    lang: vscode.env.language,
    media: true,
    ...(o.module ? { module: true } : {}),
  });
}
