// Every integration test file is imported by the extension-host entry: esbuild bundles only what
// test/integration/index.ts imports, so a suite left out of its list never runs and passes in
// silence (three suites of issue 37 did until this check).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const dir = join(__dirname, '..', '..', 'integration');

void test('test/integration/index.ts imports every *.test.ts beside it', () => {
  const entry = readFileSync(join(dir, 'index.ts'), 'utf8');
  const imported = new Set([...entry.matchAll(/import\('\.\/([\w.-]+\.test)'\)/g)].map((m) => m[1]));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3));
  assert.ok(files.length > 20, `found ${files.length} suites`);
  assert.deepEqual(
    files.filter((f) => !imported.has(f)),
    [],
    'not imported by test/integration/index.ts',
  );
});
