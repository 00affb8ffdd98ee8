import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandHeaders, headerSecrets } from '../../../../src/api/transport/headers';

void describe('extra headers as sent (issue 22)', () => {
  void it('expands ${apiKey}, lets later maps win per name without case, and drops reserved names', () => {
    const h = expandHeaders('sk-1', { 'X-A': 'k=${apiKey}', 'x-b': 'b' }, { 'x-a': 'model', 'content-type': 'text/x' });
    assert.deepEqual(h, { 'x-a': 'model', 'x-b': 'b' });
    assert.deepEqual(expandHeaders('sk-1', { 'x-t': 'Key ${apiKey}/${apiKey}' }), { 'x-t': 'Key sk-1/sk-1' });
    assert.deepEqual(expandHeaders(undefined, { 'x-t': 'Key ${apiKey}' }), { 'x-t': 'Key ' });
  });

  void it('treats the expanded values as secrets for the logs', () => {
    assert.deepEqual(headerSecrets({ a: 'short', b: 'relay-sk-long-secret' }), ['relay-sk-long-secret']);
  });
});
