// The chat header's profile switcher messages: a page may only ask for a switch by id (a bounded
// string), and what the host sends carries names and ids, no address, header or key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostMessageSchema, parseWebviewMessage } from '../../../../src/shared/protocol';

void describe('profiles/* messages', () => {
  void it('a switch names a profile id; an empty, overlong or missing id is refused', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'profiles/switch', id: 'relay' }), {
      ok: true,
      message: { type: 'profiles/switch', id: 'relay' },
    });
    for (const bad of [{}, { id: '' }, { id: 'x'.repeat(101) }, { id: 7 }]) {
      const r = parseWebviewMessage({ type: 'profiles/switch', ...bad });
      assert.equal(r.ok, false, JSON.stringify(bad));
    }
  });

  void it('the page gets id and name per profile and the active id; extra fields are not carried', () => {
    const r = hostMessageSchema.safeParse({
      type: 'profiles/list',
      profiles: [{ id: 'relay', name: 'Relay', baseUrl: 'https://relay.example/v1', key: 'sk-secret' }],
      active: 'relay',
    });
    assert.ok(r.success);
    assert.ok(!JSON.stringify(r.data).includes('sk-secret'));
    assert.ok(!JSON.stringify(r.data).includes('relay.example'));
    assert.equal(
      hostMessageSchema.safeParse({ type: 'profiles/list', profiles: [{ id: 'x' }], active: 'x' }).success,
      false,
    );
  });
});
