/**
 * Checks one webview string table (src/shared/*Strings.ts): each entry is the English text the
 * page shows and the key the host localises it by, so each must be a distinct, non-empty string
 * whose `{n}` placeholders run from `{0}` without a gap, and the Chinese bundle must translate it
 * with the same placeholders (a missing `{1}` would drop a value from the Chinese page).
 */
import assert from 'node:assert/strict';
import { paths, problems, readJson } from '../../scripts/l10nBundle';

export function checkStringTable(table: readonly string[]): void {
  assert.ok(table.length > 0, 'the table has entries');
  for (const s of table) {
    assert.notEqual(s.trim(), '', 'an empty entry');
    assert.equal(s, s.trim(), `white space around ${JSON.stringify(s)}`);
    const numbers = [...new Set((s.match(/\{(\d+)\}/g) ?? []).map((p) => Number(p.slice(1, -1))))].sort(
      (a, b) => a - b,
    );
    assert.deepEqual(
      numbers,
      numbers.map((_, i) => i),
      `placeholders of ${JSON.stringify(s)} skip a number`,
    );
  }
  assert.deepEqual(
    table.filter((s, i) => table.indexOf(s) !== i),
    [],
    'entries listed twice',
  );
  const english = Object.fromEntries(table.map((s) => [s, s]));
  assert.deepEqual(problems(english, readJson(paths.bundleZh)), [], 'the zh-cn bundle: run `npm run l10n`');
}
