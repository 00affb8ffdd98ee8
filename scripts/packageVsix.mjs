// The .vsix as a publisher ships it (issue 43): `vsce package` (which runs the production build
// through `vscode:prepublish`), then the checks a user's install depends on. Exits 1 when vsce
// warns or fails, when the package holds a file no user needs (a test, bench, fixture, source map
// or TypeScript source), when a file the bundles load is missing from it (a chunk, or a package
// the bundle leaves to node_modules, which the .vsix does not ship), or when it is over its
// budget. Prints its size against the budget. `node scripts/packageVsix.mjs [--out FILE]`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The .vsix a user downloads stays under this. */
const VSIX_BUDGET_BYTES = 3 * 1024 * 1024;

/** What no user needs, by path inside the package: each with the words a failure uses. */
const NOT_SHIPPED = [
  [/(^|\/)(test|tests|__tests__|e2e|test-results)\//, 'a test file'],
  [/\.(test|spec|e2e)\.[cm]?[jt]sx?$/, 'a test file'],
  [/(^|\/)bench\//, 'a bench file'],
  [/(^|\/)fixtures?\//, 'a fixture'],
  [/\.map$/, 'a source map'],
  [/(^|\/)src\//, 'a source file'],
  [/(^|\/)webview\/.*\.tsx?$/, 'a source file'],
  [/\.[cm]?tsx?$/, 'a TypeScript file'],
  [/(^|\/)\.(cache|ci|git|vscode-test)\//, 'a development folder'],
];

/** The files of `list` (paths inside the package) that no user needs, each with why. */
export function unwantedFiles(list) {
  const out = [];
  for (const f of list) {
    const hit = NOT_SHIPPED.find(([re]) => re.test(f));
    if (hit) out.push(`${f} (${hit[1]})`);
  }
  return out;
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * Packages a bundle may leave to node_modules because their absence is handled where they are
 * required (esbuild leaves a `require` inside a `try` unresolved), each with where and why.
 */
const OPTIONAL_EXTERNALS = {
  canvas: "linkedom's canvas.cjs: `try { require('canvas') } catch { its own shim }`",
};

/**
 * What the bundles of `metafiles` (esbuild's, one per build) need at run time that `list` (the
 * package's paths) lacks: an output file of a build into dist/, or a package left external, which
 * would be looked up in a node_modules the .vsix does not have. `vscode` and node's built-ins are
 * the host's.
 */
export function missingAtRuntime(metafiles, list) {
  const shipped = new Set(list);
  const problems = [];
  for (const meta of metafiles) {
    for (const [file, out] of Object.entries(meta.outputs)) {
      const rel = file.replace(/\\/g, '/');
      if (!rel.startsWith('dist/') || rel.endsWith('.map')) continue;
      if (!shipped.has(rel)) problems.push(`${rel} is built but not in the .vsix (.vscodeignore)`);
      for (const imp of out.imports ?? []) {
        if (!imp.external || imp.path === 'vscode' || builtins.has(imp.path)) continue;
        if (imp.kind === 'require-call' && Object.hasOwn(OPTIONAL_EXTERNALS, imp.path)) continue;
        problems.push(`${rel} imports "${imp.path}" from node_modules at run time, which the .vsix does not ship`);
      }
    }
  }
  return [...new Set(problems)];
}

/** vsce's output lines that are warnings or errors (it prints them with a WARNING/ERROR tag). */
export function vsceComplaints(output) {
  return output.split('\n').filter((l) => /\b(WARNING|ERROR)\b|^\s*warn/i.test(l));
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;

function vsce(root, args, env = {}) {
  const r = spawnSync('npx', ['--no-install', 'vsce', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    // No terminal: vsce asks nothing and looks up no newer version of itself.
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** Packages the extension into `out` and checks it; resolves with the problems found (none: ok). */
export function packageVsix(root, out) {
  const problems = [];
  const cache = path.join(root, '.cache');
  mkdirSync(cache, { recursive: true });
  const metaFile = path.join(cache, 'vsix-metafile.json');
  rmSync(metaFile, { force: true });
  rmSync(out, { force: true });
  // Relative links stay relative: the README and its pictures ship inside the .vsix, where VS Code
  // resolves them. No dependencies: everything the extension runs is bundled into dist/.
  const pack = vsce(root, ['package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], {
    GWS_METAFILE: metaFile,
  });
  const complaints = vsceComplaints(pack.out);
  if (pack.code !== 0) return [`vsce package failed (exit ${pack.code}):\n${pack.out.trim()}`];
  for (const l of complaints) problems.push(`vsce: ${l.trim()}`);
  const ls = vsce(root, ['ls', '--no-dependencies']);
  if (ls.code !== 0) return [...problems, `vsce ls failed (exit ${ls.code}):\n${ls.out.trim()}`];
  const list = ls.out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (const f of unwantedFiles(list)) problems.push(`the .vsix holds ${f}`);
  const metafiles = JSON.parse(readFileSync(metaFile, 'utf8'));
  for (const p of missingAtRuntime(metafiles, list)) problems.push(p);
  const size = statSync(out).size;
  const over = size > VSIX_BUDGET_BYTES;
  console.log(
    `vsix: ${path.relative(root, out)} ${mb(size)} of its ${mb(VSIX_BUDGET_BYTES)} budget (${over ? 'OVER' : 'ok'}), ${list.length} files; vsce warnings: ${complaints.length}`,
  );
  if (over) problems.push(`the .vsix is ${mb(size)}, over its ${mb(VSIX_BUDGET_BYTES)} budget`);
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const i = process.argv.indexOf('--out');
  const out = path.resolve(root, i >= 0 ? process.argv[i + 1] : 'dist/gateway-studio.vsix');
  const problems = packageVsix(root, out);
  for (const p of problems) console.error(`vsix: ${p}`);
  if (problems.length) process.exit(1);
  console.log('vsix: no vsce warning; no test, bench, fixture, source map or TypeScript file; every bundle file in it');
}
