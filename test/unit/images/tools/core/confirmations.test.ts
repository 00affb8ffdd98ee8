// The vscode.lm tools send only a plan whose confirmation was shown: once, within its time, and
// not after the request or an input file changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ImageConfirmations, imagePlanKey } from '../../../../../src/images/tools/core/confirmations';

const req = { model: 'gpt-image-1', prompt: 'dark', n: 1 };
const img = (b: string) => ({ images: [{ name: 'a.png', bytes: Buffer.from(b) }], labels: ['a.png'] });

void describe('image confirmations', () => {
  void it('a plan key changes with the request and with the input bytes, not with key order', () => {
    const k = imagePlanKey('edit', req, img('one'));
    assert.equal(k, imagePlanKey('edit', { n: 1, prompt: 'dark', model: 'gpt-image-1' }, img('one')));
    assert.notEqual(k, imagePlanKey('edit', req, img('two')));
    assert.notEqual(k, imagePlanKey('edit', { ...req, n: 2 }, img('one')));
    assert.notEqual(k, imagePlanKey('generate', req));
  });

  void it('each recorded confirmation is used once and expires', () => {
    let now = 0;
    const c = new ImageConfirmations(() => now);
    assert.equal(c.consume('a'), false);
    c.record('a');
    assert.equal(c.consume('a'), true);
    assert.equal(c.consume('a'), false);
    c.record('b');
    now += 11 * 60_000;
    assert.equal(c.consume('b'), false);
  });
});
