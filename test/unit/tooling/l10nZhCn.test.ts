// The Simplified Chinese files against the English: package.nls.zh-cn.json against
// package.nls.json, l10n/bundle.l10n.zh-cn.json against a fresh extraction by @vscode/l10n-dev
// (so a new `l10n.t` string without a translation fails here, before anyone sees English in a
// Chinese UI). `npm run l10n` regenerates the English bundle and lists what is missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import {
  extractBundle,
  paths,
  problems,
  readJson,
  ROOT,
  SAME_IN_CHINESE,
  type Strings,
} from '../../../scripts/l10nBundle';

const fix = 'run `npm run l10n`, translate what it lists';

void describe('zh-cn translations', () => {
  let extracted: Strings;
  before(async () => {
    extracted = await extractBundle();
  });

  void it('the committed English bundle is what @vscode/l10n-dev extracts now', () => {
    const committed = readJson(paths.bundle);
    assert.ok(Object.keys(extracted).length > 400, 'the extraction found the l10n.t strings');
    assert.deepEqual(Object.keys(committed).sort(), Object.keys(extracted).sort(), `stale bundle: ${fix}`);
  });

  void it('package.nls.zh-cn.json translates every key of package.nls.json', () => {
    assert.deepEqual(problems(readJson(paths.nls), readJson(paths.nlsZh)), [], fix);
  });

  void it('bundle.l10n.zh-cn.json translates every extracted string, webview and gallery tables included', () => {
    assert.deepEqual(problems(extracted, readJson(paths.bundleZh)), [], fix);
  });

  void it('every %key% of package.json has an English entry', () => {
    const manifest = readFileSync(join(ROOT, 'package.json'), 'utf8');
    const nls = readJson(paths.nls);
    const used = [...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);
    assert.ok(used.length > 20);
    assert.deepEqual(
      used.filter((k) => !(k in nls)),
      [],
    );
  });

  void it("keeps the spec's meaning of 401 (the key) and 403 (permission, balance, group)", () => {
    const zh = readJson(paths.bundleZh);
    assert.match(zh['The API key was refused (401)']!, /密钥/);
    const forbidden =
      zh[
        'The gateway answers 403 when the key lacks permission for the model, the balance is used up, or the group does not allow it.'
      ]!;
    for (const word of ['权限', '余额', '分组']) assert.ok(forbidden.includes(word), word);
    const nlsZh = readJson(paths.nlsZh);
    assert.equal(nlsZh['command.setApiKey'], '设置 API 密钥');
  });

  void it('each string kept in English is used and has a reason', () => {
    const all = { ...readJson(paths.nls), ...extracted };
    const english = new Set(Object.values(all));
    for (const [s, why] of Object.entries(SAME_IN_CHINESE)) {
      assert.ok(english.has(s), `${s} is not an English string any more`);
      assert.ok(why.length > 10);
    }
  });

  // The checks themselves: each kind of fault in a translation is reported.
  void it('reports a missing key, an empty string, the English copied and a changed placeholder', () => {
    const en = { a: 'Open {0}', b: 'Close', c: 'Copy {0} to {1}', d: 'Delete', e: 'Gateway Studio' };
    const zh = { b: ' ', c: '复制 {0} 到 {0}', d: 'Delete', e: 'Gateway Studio' };
    assert.deepEqual(problems(en, zh), [
      'missing: "a"',
      'empty: "b"',
      'placeholders {0} {0} instead of {0} {1}: "c"',
      'English copied (list it in SAME_IN_CHINESE with a reason if right): "d"',
    ]);
    assert.deepEqual(
      problems(en, { a: '打开 {0}', b: '关闭', c: '将 {1} 复制到 {0}', d: '删除', e: 'Gateway Studio' }),
      [],
    );
  });
});
