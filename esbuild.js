// Bundles the extension host (node, cjs, `vscode` external) and the chat webview (browser).
// Type-checking is separate (`npm run typecheck`): esbuild only strips types.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// ajv is required lazily (src/chat/tools/core/validation.ts) from its own file beside the host
// bundle, so activation does not parse it; the second entry below builds that file.
const lazyBesideTheBundle = {
  name: 'lazy-beside-the-bundle',
  setup(build) {
    build.onResolve({ filter: /^ajv$/ }, () => ({ path: './ajv.js', external: true }));
    // The @-mention sources, loaded when first used (src/chat/mentions/vscode/chatMentions.ts).
    build.onResolve({ filter: /^gws-mentions$/ }, () => ({ path: './mentions.js', external: true }));
    // The account feature (balance, spend), imported after activation (src/extension.ts).
    build.onResolve({ filter: /^\.\/account\/vscode\/register$/ }, () => ({ path: './account.js', external: true }));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    entryPoints: { ajv: require.resolve('ajv') },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
  {
    entryPoints: { mentions: 'src/chat/mentions/vscode/picker.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
  {
    entryPoints: { account: 'src/account/vscode/register.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [lazyBesideTheBundle],
    // A dynamic import of a file beside the bundle becomes a deferred require: the host loads
    // extensions as CommonJS, where `vscode` resolves (until the ESM build of issue 25).
    supported: { 'dynamic-import': false },
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
];

// The webview bundle exists from the chat issue on.
if (fs.existsSync(path.join(__dirname, 'webview', 'chat', 'main.ts'))) {
  builds.push({
    entryPoints: { webview: 'webview/chat/main.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    loader: { '.css': 'css', '.ttf': 'file', '.woff2': 'file' },
    // The chat UI is Preact components in .tsx (see webview/chat/app.tsx).
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
}

// The video gallery: its own small bundle (Preact components), loaded only by the gallery view.
if (fs.existsSync(path.join(__dirname, 'webview', 'gallery', 'main.tsx'))) {
  builds.push({
    entryPoints: { gallery: 'webview/gallery/main.tsx' },
    outdir: 'dist',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
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
    // The tests' bundle carries the mention sources inline, as it does ajv.
    plugins: [
      {
        name: 'mentions-inline',
        setup(build) {
          build.onResolve({ filter: /^gws-mentions$/ }, () => ({
            path: path.join(__dirname, 'src', 'chat', 'mentions', 'vscode', 'picker.ts'),
          }));
        },
      },
    ],
    sourcemap: true,
    logLevel: 'warning',
  });
}

async function main() {
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
