// The node test stages' TypeScript, transpiled once into .cache/tests-js (same layout, .js beside
// links to every other file) so that each test file's process loads plain JavaScript. Loading tsx
// into each of the ~300 unit-test processes cost about 0.4 CPU-s apiece (measured on a file with
// one assertion: 0.75 against 0.33), a fifth of the stage on a 2-core machine.
//
// A file keeps its own identity: __dirname, __filename and import.meta.{dirname,url} name the
// source file, so fixtures read beside a test and `node --import tsx` children still find the
// sources. esbuild transforms each file alone, as tsx does (CommonJS, the package has no "type").
import { transform } from 'esbuild';
import { promises as fs } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TRANSPILED = new Set(['.ts', '.tsx', '.mts', '.cts']);
const SKIP = new Set(['node_modules', '.git', '.cache', 'dist', 'out']);

/** Every file under `dir`, relative to `root`. */
async function walk(root, dir, out) {
  for (const entry of await fs.readdir(join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) await walk(root, rel, out);
    else out.push(rel);
  }
  return out;
}

async function transpile(root, outDir, rel) {
  const src = join(root, rel);
  const ext = extname(rel);
  const out = join(outDir, rel.slice(0, -ext.length) + (ext === '.mts' ? '.mjs' : '.js'));
  // The sources take jsonc-parser's ES build for the bundle; its extensionless imports load only
  // through a bundler or tsx, so the tests get the same API from its CommonJS entry.
  const code = (await fs.readFile(src, 'utf8')).replaceAll("'jsonc-parser/lib/esm/main.js'", "'jsonc-parser'");
  const dir = JSON.stringify(dirname(src));
  const file = JSON.stringify(src);
  const result = await transform(code, {
    loader: ext === '.tsx' ? 'tsx' : 'ts',
    format: ext === '.mts' ? 'esm' : 'cjs',
    target: 'node20',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    sourcemap: 'inline',
    sourcefile: src,
    sourcesContent: false,
    // import() becomes require() as tsx does it here: the sources import without file extensions.
    supported: { 'dynamic-import': false },
    define: {
      __dirname: dir,
      __filename: file,
      'import.meta.dirname': dir,
      'import.meta.filename': file,
      'import.meta.url': JSON.stringify(pathToFileURL(src).href),
    },
  });
  await fs.mkdir(dirname(out), { recursive: true });
  await fs.writeFile(out, result.code);
}

async function link(root, outDir, rel) {
  const out = join(outDir, rel);
  await fs.mkdir(dirname(out), { recursive: true });
  await fs.symlink(join(root, rel), out);
}

/**
 * Transpiles `folders` of `root` into `outDir` (emptied first), linking every other file and the
 * root's package files; returns the number of files transpiled.
 */
export async function compileTests(root, outDir, folders = ['src', 'test', 'webview', 'scripts', 'bench']) {
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  const files = [];
  for (const f of folders) await walk(root, f, files).catch(() => files);
  const ts = files.filter((f) => TRANSPILED.has(extname(f)) && !f.endsWith('.d.ts'));
  const other = files.filter((f) => !TRANSPILED.has(extname(f)));
  for (const name of await fs.readdir(root))
    if (/^package(\.nls\..*)?\.json$/.test(name) || name === 'package.nls.json') other.push(name);
  // A few at a time: esbuild's one service does the work; this only bounds open files.
  for (let i = 0; i < ts.length; i += 64)
    await Promise.all(ts.slice(i, i + 64).map((rel) => transpile(root, outDir, rel)));
  await Promise.all(other.map((rel) => link(root, outDir, rel)));
  return ts.length;
}

/** The transpiled path of a test file given relative to the root. */
export function compiledPath(outDir, rel) {
  const ext = extname(rel);
  return join(outDir, rel.slice(0, -ext.length) + (ext === '.mts' ? '.mjs' : '.js'));
}
