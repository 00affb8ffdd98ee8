#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.ts in turn. Benchmarks print figures (with ratios
// against a baseline measured in the same run); they assert nothing about time.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies } from './ensureSetup.mjs';

const root = new URL('..', import.meta.url).pathname;
ensureDependencies(root, 'npm run bench');
const dir = join(root, 'bench');
const only = process.argv.slice(2);
const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts') && (only.length === 0 || only.some((o) => f.includes(o))))
      .sort()
  : [];
let status = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', f)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) status = 1;
}
process.exit(status);
