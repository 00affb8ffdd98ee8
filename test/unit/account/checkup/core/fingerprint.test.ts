import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAMILIES, PROBE_STRINGS } from '../../../../../src/account/checkup/core/families';
import { fingerprintRequests, fingerprintVerdict } from '../../../../../src/account/checkup/core/fingerprint';

// Recorded answers: a relay's prompt tokens are the family's counts plus its template's tokens.
const o200k = FAMILIES.find((f) => f.id === 'o200k')!.counts.map((c) => c + 9);
const cl100k = FAMILIES.find((f) => f.id === 'cl100k')!.counts.map((c) => c + 7);

void describe('tokenizer fingerprint', () => {
  void it('asks one tiny request per probe string', () => {
    const r = fingerprintRequests('m');
    assert.equal(r.length, PROBE_STRINGS.length);
    assert.ok(r.every((q) => q.max_tokens === 1 && q.messages.length === 1));
  });

  void it('matches the claimed family whatever the template adds', () => {
    const v = fingerprintVerdict('gpt-4o', o200k);
    assert.equal(v.verdict, 'ok');
    assert.equal(v.figures.off_o200k, 0);
  });

  void it('names another family under the name', () => {
    const v = fingerprintVerdict('gpt-4o', cl100k);
    assert.equal(v.verdict, 'problem');
    assert.match(v.summary, /match cl100k .* claims o200k/);
  });

  void it('a name claiming a family without a table, answered by a known one, is a problem', () => {
    assert.equal(fingerprintVerdict('claude-sonnet-4', o200k).verdict, 'problem');
  });

  void it('counts that match nothing: a problem when the claimed family is known, else cannot tell', () => {
    const odd = o200k.map((c, i) => c + i * 3);
    assert.equal(fingerprintVerdict('gpt-4o', odd).verdict, 'problem');
    assert.equal(fingerprintVerdict('claude-3', odd).verdict, 'cannot-tell');
    assert.equal(fingerprintVerdict('mystery', odd).verdict, 'cannot-tell');
    assert.equal(fingerprintVerdict('mystery', o200k).verdict, 'ok');
  });

  void it('without usage it cannot tell, and says why', () => {
    const v = fingerprintVerdict('gpt-4o', [undefined, ...o200k.slice(1)]);
    assert.equal(v.verdict, 'cannot-tell');
    assert.match(v.summary, /no prompt tokens \(usage\) for 1 of 8/);
  });
});
