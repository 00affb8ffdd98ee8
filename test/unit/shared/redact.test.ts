// Credentials masked in free text (src/shared/redact.ts): every shape a server may echo back, and
// the keys this process sends even when they are not `sk-`-shaped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact, rememberSecret } from '../../../src/shared/redact';

void test('an Authorization header is masked in JSON, header and query shapes', () => {
  assert.equal(redact('{"Authorization": "Bearer abc.def"}'), '{"Authorization": "Bearer ***"}');
  assert.equal(redact('authorization: Bearer sk-live-123456789'), 'authorization: Bearer ***');
  assert.equal(redact("authorization='token123'"), "authorization='***'");
});

void test('a bare bearer token and an sk- key are masked wherever they appear', () => {
  assert.equal(redact('echo: bearer Zm9vYmFyYmF6 end'), 'echo: Bearer *** end');
  assert.equal(redact('invalid key sk-abcdefgh1234 given'), 'invalid key sk-*** given');
  // Short sk- words are prose, not keys.
  assert.equal(redact('the sk-abc prefix'), 'the sk-abc prefix');
});

void test('a key passed by the caller or remembered by the client is masked in any shape', () => {
  assert.equal(redact('key=relay_9f8e7d was refused', ['relay_9f8e7d']), 'key=*** was refused');
  rememberSecret('gw-only-shape-4242');
  assert.equal(redact('task failed for gw-only-shape-4242 (x2: gw-only-shape-4242)'), 'task failed for *** (x2: ***)');
  // Too short to be a key: masking it would mangle ordinary text.
  rememberSecret('abc');
  assert.equal(redact('abc stays'), 'abc stays');
});
