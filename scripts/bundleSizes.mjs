// The production bundles against the budgets of docs/DEVELOPING.md (run by .ci/run after
// `npm run build -- --production`; node built-ins only). The host is an ES module split into
// chunks (esbuild.js): what counts against its budget is what activation loads, the entry and
// every chunk it imports statically, transitively; chunks reached only through `import()` load on
// first use and are listed with their sizes. The chat page is split the same way (dist/webview.js,
// dist/webview-chunks/): what counts is what loads before its first paint. Exits 1 when a budget
// is exceeded.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const HOST_BUDGET_KB = 200;
/** The chat page before its first paint: dist/webview.js and the chunks it imports statically. */
export const PAGE_BUDGET_KB = 200;
/** The video gallery, one file (dist/gallery.js). */
export const GALLERY_BUDGET_KB = 300;

/** The relative files `file` imports statically (`import … from "./x"`, `import "./x"`), not `import("./x")`. */
export function staticImports(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'])(\.{1,2}\/[^"']+)\1/g)) {
    out.push(path.resolve(path.dirname(file), m[2]));
  }
  return out;
}

/** The entry and every file it loads before it runs, in load order, each once. */
export function loadedWith(entry) {
  const seen = new Set();
  const visit = (f) => {
    // A quoted path in the code that is no file (a string that looks like an import) is skipped.
    if (seen.has(f) || !existsSync(f)) return;
    seen.add(f);
    for (const g of staticImports(f)) visit(g);
  };
  visit(path.resolve(entry));
  return [...seen];
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report's lines and whether a budget is exceeded, for the bundles in `dist`. */
export function bundleReport(dist) {
  const lines = [];
  let over = false;
  const size = (f) => statSync(f).size;
  const entry = path.join(dist, 'extension.mjs');
  const atActivation = loadedWith(entry);
  const hostBytes = atActivation.reduce((n, f) => n + size(f), 0);
  const hostOver = hostBytes / 1024 > HOST_BUDGET_KB;
  over ||= hostOver;
  lines.push(
    `host at activation: ${kb(hostBytes)} (budget ${HOST_BUDGET_KB} KB: ${hostOver ? 'OVER' : 'ok'}): ` +
      `dist/extension.mjs ${kb(size(entry))} and ${atActivation.length - 1} chunk(s) it imports`,
  );
  const chunkDir = path.resolve(dist, 'chunks');
  const chunks = existsSync(chunkDir) ? readdirSync(chunkDir).filter((f) => f.endsWith('.mjs')) : [];
  const loaded = new Set(atActivation);
  for (const c of chunks.map((f) => path.join(chunkDir, f)).sort((a, b) => size(b) - size(a))) {
    const when = loaded.has(c) ? 'at activation' : 'on first use';
    lines.push(`  dist/chunks/${path.basename(c)}: ${kb(size(c))} (${when})`);
  }
  const page = path.join(dist, 'webview.js');
  const atPaint = loadedWith(page);
  const pageBytes = atPaint.reduce((n, f) => n + size(f), 0);
  const pageOver = pageBytes / 1024 > PAGE_BUDGET_KB;
  over ||= pageOver;
  lines.push(
    `chat page at first paint: ${kb(pageBytes)} (budget ${PAGE_BUDGET_KB} KB: ${pageOver ? 'OVER' : 'ok'}): ` +
      `dist/webview.js ${kb(size(page))} and ${atPaint.length - 1} chunk(s) it imports`,
  );
  const pageDir = path.resolve(dist, 'webview-chunks');
  const pageChunks = existsSync(pageDir) ? readdirSync(pageDir).filter((f) => f.endsWith('.js')) : [];
  const painted = new Set(atPaint);
  for (const c of pageChunks.map((f) => path.join(pageDir, f)).sort((a, b) => size(b) - size(a))) {
    const when = painted.has(c) ? 'at first paint' : 'on first use';
    lines.push(`  dist/webview-chunks/${path.basename(c)}: ${kb(size(c))} (${when})`);
  }
  const gallery = size(path.join(dist, 'gallery.js'));
  const galleryOver = gallery / 1024 > GALLERY_BUDGET_KB;
  over ||= galleryOver;
  lines.push(`dist/gallery.js: ${kb(gallery)} (budget ${GALLERY_BUDGET_KB} KB: ${galleryOver ? 'OVER' : 'ok'})`);
  return { lines, over };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { lines, over } = bundleReport(process.argv[2] ?? 'dist');
  for (const l of lines) console.log(l);
  process.exit(over ? 1 : 0);
}
