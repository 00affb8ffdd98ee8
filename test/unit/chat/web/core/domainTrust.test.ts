// Per-domain approval of fetch_url, kept in the user's global state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainTrust, domainKey } from '../../../../../src/chat/web/core/domainTrust';

function storage() {
  const m = new Map<string, unknown>();
  return { m, get: (k: string) => m.get(k), update: async (k: string, v: unknown) => void m.set(k, v) };
}

void describe('DomainTrust', () => {
  void it('remembers a domain under the global key, and forgets it', async () => {
    const s = storage();
    const t = new DomainTrust(s);
    assert.equal(t.isTrusted(domainKey('Example.com.')), false);
    await t.trust(domainKey('Example.com.'));
    assert.equal(t.isTrusted(domainKey('example.com')), true);
    assert.equal(t.isTrusted(domainKey('other.example.com')), false, 'exactly that host');
    assert.deepEqual(s.m.get('gatewayStudio.web.allowedDomains'), ['example.com']);
    await t.forget('EXAMPLE.com');
    assert.equal(t.isTrusted(domainKey('example.com')), false);
  });

  void it('a tool name is never a domain key (no host can stand for a tool)', async () => {
    const t = new DomainTrust(storage());
    await t.trust('run_command');
    assert.equal(t.isTrusted('run_command'), false);
    assert.equal(domainKey('run_command'), 'fetch_url:run_command');
  });
});
