#!/usr/bin/env node
// `npm start`: builds the extension, then test/host/start.ts starts the local gateway and opens a
// real VS Code with the extension (desktop `code` if on PATH, else code-server in the browser).
// Flags go through: `npm start -- --browser` (force code-server), `--port N` (code-server port).
import { spawn, spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('npm start: the build failed (see above)');
  process.exit(build.status ?? 1);
}
const child = spawn(process.execPath, ['--import', 'tsx', 'test/host/start.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the child too (same terminal process group): let it clean up, then exit with it.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
