// The fingerprint table recomputed from the real vocabularies (test/support/tiktokenVocab.ts reads
// the ones code-server ships with the host stage's cache), and the probe strings' separation of
// every pair of families, printed as a matrix.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimedFamily, FAMILIES, PROBE_STRINGS } from '../../../../../src/account/checkup/core/families';
import { distance } from '../../../../../src/account/checkup/core/fingerprint';
import { TiktokenCounter, vocabularyFile, type TiktokenName } from '../../../../support/tiktokenVocab';

void describe('tokenizer families', () => {
  void it('every family has a count for every probe string', () => {
    for (const f of FAMILIES) assert.equal(f.counts.length, PROBE_STRINGS.length, f.id);
  });

  for (const f of FAMILIES) {
    const file = vocabularyFile(f.id as TiktokenName);
    void it(
      `the ${f.id} counts are the vocabulary's`,
      { skip: file ? false : `no ${f.id} vocabulary here (the host stage's code-server cache installs it)` },
      () => {
        const t = new TiktokenCounter(file!, f.id as TiktokenName);
        assert.deepEqual(
          PROBE_STRINGS.map((s) => t.count(s)),
          f.counts,
        );
      },
    );
  }

  void it(
    'the counter is tiktoken (known counts)',
    { skip: vocabularyFile('cl100k') ? false : 'no vocabulary here' },
    () => {
      const cl = new TiktokenCounter(vocabularyFile('cl100k')!, 'cl100k');
      assert.equal(cl.size, 100256);
      assert.equal(cl.count('tiktoken is great!'), 6);
      assert.equal(cl.count('hello world'), 2);
    },
  );

  void it('the probe strings separate every pair of families (matrix of token distances)', () => {
    const ids = FAMILIES.map((f) => f.id);
    const rows = FAMILIES.map((a) => FAMILIES.map((b) => distance(a.counts, b)));
    console.log(
      ['', ...ids].map((s) => s.padStart(8)).join('') +
        '\n' +
        rows.map((r, i) => [ids[i]!, ...r.map(String)].map((s) => s.padStart(8)).join('')).join('\n'),
    );
    rows.forEach((r, i) => r.forEach((d, j) => assert.ok(i === j ? d === 0 : d > 0, `${ids[i]} vs ${ids[j]}`)));
  });

  void it('reads the family a model name claims', () => {
    assert.equal(claimedFamily('gpt-4o-mini'), 'o200k');
    assert.equal(claimedFamily('openai/gpt-4.1'), 'o200k');
    assert.equal(claimedFamily('gpt-4-turbo'), 'cl100k');
    assert.equal(claimedFamily('gpt-3.5-turbo'), 'cl100k');
    assert.equal(claimedFamily('claude-sonnet-4-5'), 'claude');
    assert.equal(claimedFamily('Qwen2.5-72B'), 'qwen');
    assert.equal(claimedFamily('deepseek-chat'), 'deepseek');
    assert.equal(claimedFamily('my-model'), undefined);
  });
});
