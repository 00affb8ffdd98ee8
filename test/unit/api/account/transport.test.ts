// The account transport over the product's HTTP client: what counts as "not there", and the
// limits that keep a hostile answer small.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpClient } from '../../../../src/api/transport/http';
import { gatewayRoot, transportOver } from '../../../../src/api/account/transport';
import { useGateway } from '../../../support/helpers';

const gw = useGateway();
const t = (o: { maxBytes?: number } = {}) =>
  transportOver(new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid }), o);

void describe('transportOver', () => {
  void it('paths are taken from the gateway root, not the /v1 base', async () => {
    assert.equal(gatewayRoot('https://x.example/openai/v1'), 'https://x.example/openai');
    const f = await t().get('/api/status');
    assert.equal(f.kind, 'json');
    assert.equal(gw.requests().at(-1)?.path, '/api/status');
  });

  void it('404 and a web page are "missing"; a body over the limit is "failed"', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    gw.setAccount({ endpoints: { pricing: 'missing', 'log-token': { body: '<html>console</html>' } } });
    assert.equal((await t().get('/api/pricing')).kind, 'missing');
    assert.equal((await t().get('/api/log/token')).kind, 'missing');
    const big = await t({ maxBytes: 100 }).get('/api/status');
    assert.equal(big.kind, 'failed');
  });

  void it('the key goes only to the gateway origin: an absolute URL elsewhere gets none', async () => {
    await t().get(`${gw.videoUrl}/v1/models`);
    const seen = gw.requests().filter((r) => r.host === 'video');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.auth, 'missing');
  });
});
