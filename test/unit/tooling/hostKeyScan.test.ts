import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { keyScanReport, scanForKeys, scanTree } from '../../host/keyScan';
import { useTempDir } from '../../support/helpers';

const tmp = useTempDir('gs-keyscan-');

void test('the key scan names the file and byte offset of every key it finds, UTF-8 and UTF-16, and passes a clean folder', () => {
  scanForKeys({ valid: 'sk-demo-gateway-studio', noBalance: 'sk-gw-no-balance' });
  const clean = tmp.fresh('clean');
  writeFileSync(join(clean, 'log.txt'), 'Authorization: Bearer sk-***\n');
  scanTree(clean, 'clean');
  assert.equal(keyScanReport().ok, true);

  const dirty = tmp.fresh('dirty');
  mkdirSync(join(dirty, 'User', 'globalStorage'), { recursive: true });
  writeFileSync(join(dirty, 'User', 'globalStorage', 'state.json'), '{"token":"sk-demo-gateway-studio"}');
  writeFileSync(join(dirty, 'wide.bin'), Buffer.concat([Buffer.alloc(6), Buffer.from('sk-gw-no-balance', 'utf16le')]));
  scanTree(dirty, 'dirty');
  const report = keyScanReport();
  assert.equal(report.ok, false);
  assert.ok(
    report.lines.includes('key "valid" found in dirty/User/globalStorage/state.json at offset 10'),
    report.lines.join('\n'),
  );
  assert.ok(
    report.lines.includes('key "noBalance" found in dirty/wide.bin (UTF-16) at offset 6'),
    report.lines.join('\n'),
  );
  assert.doesNotMatch(
    report.lines.join('\n'),
    /sk-demo-gateway-studio|sk-gw-no-balance/,
    'the report never prints a key',
  );
});
