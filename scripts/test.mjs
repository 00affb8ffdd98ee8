#!/usr/bin/env node
// One entry for the whole suite: `npm test` runs every stage below in order; `npm test -- unit`
// (or webview, host) runs one. Each stage's files are found by name so that adding a test never
// needs an edit here. Exit code is non-zero when any stage fails.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function find(dir, suffix) {
  const out = [];
  const abs = join(root, dir);
  if (!existsSync(abs)) return out;
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...find(join(dir, name), suffix));
    else if (name.endsWith(suffix)) out.push(relative(root, p));
  }
  return out.sort();
}

function run(cmd, args, extraEnv = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
}

const stages = {
  // Plain-node tests of shared, api and core, through real HTTP against the local gateway.
  unit: () => {
    const files = find('test/unit', '.test.ts');
    if (files.length === 0) return 0;
    return run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files]);
  },
  // The webview bundle in headless Chromium (needs `npm run build` first).
  webview: () => {
    const files = find('test/webview', '.test.ts');
    if (files.length === 0) return 0;
    return run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files]);
  },
  // A real VS Code (code-server) with integration tests in the extension host and Playwright e2e.
  host: () => {
    if (!existsSync(join(root, 'test/host/run.ts'))) return 0;
    return run(process.execPath, ['--import', 'tsx', 'test/host/run.ts']);
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(stages);
let failed = [];
let built = false;
for (const name of names) {
  const stage = stages[name];
  if (!stage) {
    console.error(`unknown stage "${name}"; stages: ${Object.keys(stages).join(', ')}`);
    process.exit(2);
  }
  if (name !== 'unit' && !built) {
    // Later stages run the built bundles.
    built = true;
    if (run('npm', ['run', '--silent', 'build']) !== 0) { failed.push('build'); break; }
  }
  const code = stage();
  if (code !== 0) failed.push(name);
}
if (failed.length) {
  console.error(`\nFAILED stages: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\nall stages passed: ${names.join(', ')}`);
