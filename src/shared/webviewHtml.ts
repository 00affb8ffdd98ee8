/**
 * The chat webview's HTML, shared by the VS Code view and the headless-Chromium harness so the
 * tests load exactly the page users get. The CSP allows: scripts only with the nonce, styles
 * and fonts only from the extension, images only from the extension and `data:` (thumbnails of
 * attached images); everything else (fetch, frames, forms, media) is denied by `default-src`.
 */
export interface WebviewHtmlOptions {
  /** `webview.cspSource` (or the harness origin). */
  cspSource: string;
  /** A fresh random nonce per render. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Page title, already localised. */
  title: string;
  /** BCP 47 language of the UI. */
  lang?: string;
  /** Allow `<video>` from the extension's resources (the video gallery; the chat plays none). */
  media?: boolean;
  /** The script is an ES module that loads its chunks with `import()` (the chat page, esbuild.js). */
  module?: boolean;
}

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function contentSecurityPolicy(cspSource: string, nonce: string, o: { media?: boolean } = {}): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    ...(o.media ? [`media-src ${cspSource}`] : []),
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function webviewHtml(o: WebviewHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="${esc(o.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(o.cspSource, o.nonce, { media: o.media ?? false }))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${esc(o.styleUri)}">
<title>${esc(o.title)}</title>
</head>
<body>
<div id="app"></div>
<script${o.module ? ' type="module"' : ''} nonce="${esc(o.nonce)}" src="${esc(o.scriptUri)}"></script>
</body>
</html>`;
}
