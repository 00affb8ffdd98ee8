// Bundles the extension host (node, cjs, `vscode` external) and the chat webview (browser).
// Type-checking is separate (`npm run typecheck`): esbuild only strips types.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// The host is an ES module (`dist/extension.mjs`; VS Code's extension host loads a `.mjs` main as
// ESM and resolves `import 'vscode'` for it) so that esbuild can split it: what activation does
// not need is reached through `await import(…)` at a feature's boundary and lands in a chunk of its
// own under dist/chunks/, parsed on first use. A module imported from several places is put in one
// shared chunk, so a class checked with `instanceof` exists once. `.mjs`, not `"type": "module"`:
// the project's own scripts (this file) stay CommonJS.
/**
 * The MCP SDK's own zod and event-stream parser. The SDK imports classic zod as a namespace, which
 * keeps every export of zod's core alive; core is shared with the `zod/mini` that activation
 * loads, so without this the SDK would put ~55 KB into the activation chunk (and split the
 * gateway's event-stream parser into a chunk of its own). These packages, and every file they
 * import, are loaded in a namespace of their own for the SDK, so esbuild bundles them into the
 * SDK's chunk, loaded on first use.
 */
const mcpOwnZod = {
  name: 'mcp-own-zod',
  setup(build) {
    const ns = 'mcp-zod';
    const sdk = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]sdk[\\/]/;
    build.onResolve({ filter: /^(zod|eventsource|eventsource-parser)(\/|$)/ }, async (args) => {
      if (args.namespace === ns || !sdk.test(args.importer)) return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      return r.errors.length > 0 ? { errors: r.errors } : { path: r.path, namespace: ns };
    });
    build.onResolve({ filter: /.*/, namespace: ns }, async (args) => {
      const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      if (r.errors.length > 0) return { errors: r.errors };
      return r.external ? r : { path: r.path, namespace: ns };
    });
    build.onLoad({ filter: /.*/, namespace: ns }, (args) => ({
      contents: fs.readFileSync(args.path, 'utf8'),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

const hostBuild = {
  entryPoints: { extension: 'src/extension.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  plugins: [mcpOwnZod],
  // A CommonJS dependency bundled into an ES module (@vscode/l10n reads its bundle with
  // require('fs')) still calls `require` for node's built-ins, and an ES module has none: the
  // entry and each chunk make one from their own URL.
  banner: {
    js: "import { createRequire as __gwsCreateRequire } from 'node:module'; const require = __gwsCreateRequire(import.meta.url);",
  },
  sourcemap: !production,
  minify: production,
  // The test-only commands (src/testCommands.d.ts) are in the builds the host tests load, not in the product.
  define: { __GWS_TEST_COMMANDS__: production ? 'false' : 'true' },
  logLevel: 'warning',
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [hostBuild];

/** Where the chat page's chunks go (emptied by each build, like the host's). */
const PAGE_CHUNKS = 'webview-chunks';
/** Where the storyboard page's chunks go (emptied by each build too). */
const BOARD_CHUNKS = 'storyboard-chunks';

/**
 * A webview page's bundle: Preact components for the browser. With `chunks`, an ES module split
 * like the host (what its first paint does not need is reached through `import()` and lands in
 * dist/<chunks>/); without, one IIFE.
 */
function pageBuild(name, entry, { chunks, loader, alias } = {}) {
  return {
    entryPoints: { [name]: entry },
    outdir: 'dist',
    ...(chunks ? { chunkNames: `${chunks}/[name]-[hash]`, splitting: true, format: 'esm' } : { format: 'iife' }),
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    ...(loader ? { loader } : {}),
    ...(alias ? { alias } : {}),
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  };
}

// The chat page is an ES module (loaded with `<script type="module">`, src/shared/webviewHtml.ts):
// highlight.js and the toolbar's panels land in dist/webview-chunks/. A module script's imports
// inherit its nonce, so the page's CSP (`script-src 'nonce-…'`) admits the chunks and nothing else.
if (fs.existsSync(path.join(__dirname, 'webview', 'chat', 'main.ts'))) {
  builds.push(
    pageBuild('webview', 'webview/chat/main.ts', {
      chunks: PAGE_CHUNKS,
      loader: { '.css': 'css', '.ttf': 'file', '.woff2': 'file' },
      // markdown-it's two calls into punycode.js, done by the browser (webview/chat/punycode.ts).
      alias: { 'punycode.js': './webview/chat/punycode.ts' },
    }),
  );
}

// The video gallery: its own small bundle, loaded only by the gallery view.
if (fs.existsSync(path.join(__dirname, 'webview', 'gallery', 'main.tsx'))) {
  builds.push(pageBuild('gallery', 'webview/gallery/main.tsx'));
}

// The storyboard editor (issue 24): split like the chat page, so mediabunny (the last frame, the
// stitch and the export) lands in dist/storyboard-chunks/ and loads on first use only.
if (fs.existsSync(path.join(__dirname, 'webview', 'storyboard', 'main.tsx'))) {
  builds.push(pageBuild('storyboard', 'webview/storyboard/main.tsx', { chunks: BOARD_CHUNKS }));
}

// Integration tests run inside a real extension host: bundle them to cjs so mocha can load them.
if (fs.existsSync(path.join(__dirname, 'test', 'integration', 'index.ts'))) {
  builds.push({
    entryPoints: { 'test/index': 'test/integration/index.ts' },
    outdir: 'out',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    define: { __GWS_TEST_COMMANDS__: 'true' },
    sourcemap: true,
    logLevel: 'warning',
  });
}

const summary = production || process.argv.includes('--summary');

/** What a bundle's byte comes from: an npm package, or a folder two levels under the project. */
function inputGroup(file) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  return file.split('/').slice(0, 3).join('/');
}

/** One line per output file: its size and where most of its bytes come from (esbuild's metafile). */
function printSummary(metafile, build) {
  const entries = new Set(Object.values(build.entryPoints).map((e) => path.normalize(e)));
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  for (const [file, out] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.map') || !/\.(m?js|css)$/.test(file)) continue;
    const groups = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      const g = inputGroup(input);
      groups.set(g, (groups.get(g) ?? 0) + bytesInOutput);
    }
    const top = [...groups]
      .sort((a, b) => b[1] - a[1])
      .slice(0, out.entryPoint ? 6 : 3)
      .map(([g, n]) => `${g} ${kb(n)}`)
      .join(', ');
    // An entry the build names is loaded first; one reached by `import()` is loaded on first use.
    const kind = file.endsWith('.css')
      ? 'css'
      : out.entryPoint && entries.has(path.normalize(out.entryPoint))
        ? 'entry'
        : out.entryPoint
          ? 'on first use'
          : 'shared chunk';
    console.log(`${file.padEnd(40)} ${kb(out.bytes).padStart(9)}  ${kind}: ${top || '(esbuild runtime)'}`);
  }
}

/**
 * Each module in one output only: a class in two chunks would be two classes, and `instanceof`
 * across them false. esbuild's splitting puts shared modules in shared chunks; this checks it.
 */
function assertNoDuplicates(metafile) {
  const seen = new Map();
  for (const [file, out] of Object.entries(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      if (bytesInOutput === 0) continue;
      if (seen.has(input)) throw new Error(`${input} is bundled twice: in ${seen.get(input)} and ${file}`);
      seen.set(input, file);
    }
  }
}

async function main() {
  // Chunk names carry a content hash: the last build's chunks would otherwise pile up in the
  // folder the .vsix ships.
  for (const dir of ['chunks', PAGE_CHUNKS, BOARD_CHUNKS])
    fs.rmSync(path.join(__dirname, 'dist', dir), { recursive: true, force: true });
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching');
    return;
  }
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile: true })));
  results.forEach((r) => assertNoDuplicates(r.metafile));
  if (process.env.GWS_METAFILE)
    require('node:fs').writeFileSync(process.env.GWS_METAFILE, JSON.stringify(results.map((r) => r.metafile)));
  // The tests' bundle is left out: its size matters to nobody.
  if (summary) results.forEach((r, i) => builds[i].outdir === 'dist' && printSummary(r.metafile, builds[i]));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
