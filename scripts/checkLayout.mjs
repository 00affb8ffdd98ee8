// What lint's import zones cannot see, checked over the tree (run by `npm run lint`; node built-ins
// only). Each rule says where a new file belongs, so the map of docs/DEVELOPING.md stays true:
// - every source file sits in a layer folder: src/{api,shared,platform,contracts}/, a feature's
//   composition point src/<feature>/vscode/, or a capability's src/<feature>/<capability>/{core,vscode}/;
//   the webview's in a folder of webview/ (each a page, or webview/common which the pages share);
// - no source file is over 400 lines, and no webview stylesheet (.css) either;
// - unit tests mirror src: test/unit/<path>.test.ts (or <path>.<aspect>.test.ts) names a source
//   file, except the project's own tooling in test/unit/tooling/; a page's file is named with its
//   webview/ prefix (test/unit/webview/chat/models/composer.test.ts);
// - every core unit (src/api, src/shared, src/contracts, src/**/core) and every page model
//   (webview/<page>/models/) has its test, or its gap is allowed with a reason in
//   test/unit/untested.json (and an allowance whose test now exists fails, so the list only shrinks).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const MAX_LINES = 400;
/**
 * Files still over the limit, each with the split it waits for (issue 19). A listed file that
 * has come under the limit fails too, so the list only shrinks.
 */
export const OVER_LIMIT = {};
export const SHARED_LAYERS = ['api', 'shared', 'files', 'platform', 'contracts'];
const SOURCE = /\.(ts|tsx)$/;
/** What the line cap counts under webview/: the pages' code and their stylesheets. */
const WEBVIEW_CAPPED = /\.(ts|tsx|css)$/;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Every file under `dir` of `root`, as paths relative to `root` (also used by capabilityGraph.mjs). */
export function walk(root, dir) {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    return e.isDirectory() ? walk(root, rel) : [rel];
  });
}

/** Why `file` (a path under src/) is not in a layer folder, or undefined when it is. */
function srcPlacement(file) {
  const parts = file.split('/').slice(1);
  // Beside extension.ts only global declarations (the build flags esbuild.js defines).
  if (parts.length === 1)
    return parts[0] === 'extension.ts' || parts[0].endsWith('.d.ts')
      ? undefined
      : 'only extension.ts and global declarations (*.d.ts) sit at the top of src/';
  if (SHARED_LAYERS.includes(parts[0])) return undefined;
  if (parts[1] === 'vscode') return undefined;
  if (parts.length >= 4 && (parts[2] === 'core' || parts[2] === 'vscode')) return undefined;
  return `a feature's files go in src/${parts[0]}/<capability>/core/ or /vscode/ (or its composition point src/${parts[0]}/vscode/)`;
}

/**
 * The unit a file's tests are named after: `src/chat/tools/core/fs.ts` -> `chat/tools/core/fs`,
 * `webview/chat/models/composer.ts` -> `webview/chat/models/composer` (src has no webview/ folder).
 */
const unitName = (file) => file.replace(/^src\//, '').replace(SOURCE, '');
const isCoreUnit = (file) =>
  SOURCE.test(file) &&
  (/^src\/(api|shared|files|contracts)\//.test(file) || /\/core\//.test(file)) &&
  !file.endsWith('.d.ts');
/** A page's state model: plain TypeScript over signals, tested in node like a core unit. */
const isPageModel = (file) => SOURCE.test(file) && /^webview\/[^/]+\/models\//.test(file);

/** Every problem with the tree at `root`, as sentences naming the file. */
export function layoutProblems(root) {
  const problems = [];
  const src = walk(root, 'src').filter((f) => SOURCE.test(f));
  const webviewFiles = walk(root, 'webview');
  const webview = webviewFiles.filter((f) => SOURCE.test(f));
  for (const f of src) {
    const why = srcPlacement(f);
    if (why) problems.push(`${f}: outside a layer folder: ${why}`);
  }
  // Any folder of webview/ is a page (or webview/common); eslint reads the same folders for its zones.
  for (const f of webviewFiles) {
    if (f.split('/').length < 3 && f !== 'webview/tsconfig.json')
      problems.push(
        `${f}: outside a layer folder: the webview's files go in a page's folder, webview/<page>/ (or webview/common/)`,
      );
  }
  for (const f of [...src, ...webviewFiles.filter((w) => WEBVIEW_CAPPED.test(w))]) {
    const lines = readFileSync(path.join(root, f), 'utf8').split('\n').length - 1;
    const waiting = root === process.cwd() || root === REPO ? OVER_LIMIT[f] : undefined;
    if (lines > MAX_LINES && !waiting) problems.push(`${f}: ${lines} lines, over the ${MAX_LINES}-line limit`);
    if (lines <= MAX_LINES && waiting) problems.push(`${f}: under the limit now: remove it from OVER_LIMIT`);
  }

  const units = new Set([...src.filter(isCoreUnit), ...webview.filter(isPageModel)].map(unitName));
  const sources = new Set([...src, ...webview].map(unitName));
  const fileOf = new Map([...src, ...webview].map((f) => [unitName(f), f]));
  const tests = walk(root, 'test/unit').filter((f) => f.endsWith('.test.ts') && !f.startsWith('test/unit/tooling/'));
  const tested = new Set();
  for (const t of tests) {
    const name = t.replace(/^test\/unit\//, '').replace(/\.test\.ts$/, '');
    // `<unit>.<aspect>`: the longest prefix (at a dot) that names a source file.
    const candidates = name.split('.').map((_, i, all) => all.slice(0, all.length - i).join('.'));
    const unit = candidates.find((c) => sources.has(c));
    if (unit) tested.add(unit);
    else
      problems.push(
        `${t}: names no source file (tests mirror src: test/unit/<path under src>.test.ts, or test/unit/webview/<path under webview>.test.ts)`,
      );
  }
  const allowFile = path.join(root, 'test/unit/untested.json');
  const allowed = existsSync(allowFile) ? JSON.parse(readFileSync(allowFile, 'utf8')) : {};
  for (const unit of [...units].sort()) {
    if (!tested.has(unit) && !(unit in allowed))
      problems.push(
        `${fileOf.get(unit)}: a ${unit.startsWith('webview/') ? 'page model' : 'core unit'} without test/unit/${unit}.test.ts (write one, or allow the gap with a reason in test/unit/untested.json)`,
      );
  }
  for (const [unit, reason] of Object.entries(allowed)) {
    if (!units.has(unit))
      problems.push(`test/unit/untested.json: "${unit}" is not a core unit or page model (moved or removed?)`);
    else if (tested.has(unit)) problems.push(`test/unit/untested.json: "${unit}" has a test now: remove its allowance`);
    else if (typeof reason !== 'string' || reason.trim().length < 10)
      problems.push(`test/unit/untested.json: "${unit}" needs a reason`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = layoutProblems(process.cwd());
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`\n${problems.length} layout problem(s); the map is in docs/DEVELOPING.md.`);
    process.exit(1);
  }
  console.log(
    'layout: every file in its layer folder, under the line limit, and every core unit and page model tested or allowed',
  );
}
