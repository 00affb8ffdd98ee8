#!/usr/bin/env node
// `npm start`: installs the locked dependencies when needed (scripts/ensureSetup.mjs), builds
// the extension, then test/host/start.ts starts the local gateway and opens a real VS Code with
// the extension (desktop `code` if on PATH, else code-server in the browser).
// Flags go through: `npm start -- --browser` (force code-server), `--port N` (code-server port),
// `--smoke` (start everything, check that it answers, stop, exit 0: what CI runs).
import { spawn, spawnSync } from 'node:child_process';
import { BROWSER_ENV, ensureBrowser, ensureDependencies, ensureNode } from './ensureSetup.mjs';

const WHO = 'npm start';
const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
try {
  ensureNode(WHO);
  ensureDependencies(root, WHO);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
if (args.includes('--smoke')) {
  // The smoke run opens the workbench in a headless browser to see the extension connect; without
  // one it checks over HTTP only, and says so.
  const browser = ensureBrowser(WHO, ["the smoke run's extension check"]);
  if (browser) process.env[BROWSER_ENV] = browser;
}
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('npm start: the build failed (see above)');
  process.exit(build.status ?? 1);
}
const child = spawn(process.execPath, ['--import', 'tsx', 'test/host/start.ts', ...args], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl-C reaches the child too (same terminal process group): let it clean up, then exit with it.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
