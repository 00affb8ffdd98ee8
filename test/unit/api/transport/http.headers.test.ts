// A profile's and a model's extra headers over real HTTP: the second local gateway requires one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../../src/api/client';
import { VideoClient } from '../../../../src/api/video/video';
import { SECOND_GATEWAY } from '../../../gateway/keys';
import { gatewayFailure as failure, useGateway } from '../../../support/helpers';
import { saveTo } from '../../../../src/video/jobs/core/saveDownload';

const gw = useGateway({ ...SECOND_GATEWAY });
const { name, value } = SECOND_GATEWAY.requiredHeader;

function client(headers?: Record<string, string>, modelHeaders?: Record<string, Record<string, string>>) {
  return new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, headers, modelHeaders, maxRetries: 0 });
}

void describe('extra headers reach the gateway (issue 22)', () => {
  void it('the second instance answers 401 without its header and 403 with another value', async () => {
    assert.equal((await failure(client().listModels())).status, 401);
    assert.equal((await failure(client({ [name]: 'nope' }).listModels())).status, 403);
  });

  void it('the model list and a chat carry the header; ${apiKey} is replaced by the key', async () => {
    const c = client({ [name]: value, 'x-echo-key': 'k=${apiKey}' });
    const models = await c.listModels();
    assert.ok(
      models.some((m) => m.id === 'relay-chat'),
      'the second instance lists its own model',
    );
    const r = await c.streamChat({ model: 'relay-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok((r.message.content ?? '').length > 0);
    const reqs = gw.requests();
    assert.equal(reqs.length, 2);
    for (const r of reqs) {
      assert.equal(r.headers[name], value);
      assert.equal(r.headers['x-echo-key'], `k=${gw.keys.valid}`);
      assert.equal(r.auth, 'valid');
    }
  });

  void it('a per-model header goes with that model only', async () => {
    const c = client({ [name]: value }, { 'gw-chat': { 'x-model': 'm1' } });
    await c.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'a' }] });
    await c.streamChat({ model: 'relay-chat', messages: [{ role: 'user', content: 'b' }] });
    const [a, b] = gw.requests();
    assert.equal(a?.headers['x-model'], 'm1');
    assert.equal(b?.headers['x-model'], undefined);
  });

  void it('video create, poll and download carry the header (download through node:http)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gws-hdr-'));
    try {
      const c = new GatewayClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, headers: { [name]: value } });
      const v = new VideoClient(c.http);
      const { id } = await v.create({ model: 'vendor-image-video', prompt: 'a cat' });
      gw.completeVideo(id);
      await v.status(id);
      const out = await v.download(id, saveTo(join(dir, 'v.mp4')));
      assert.ok(out.bytes > 0);
      const routes = gw.requests().map((r) => [r.route, r.headers[name]]);
      assert.ok(routes.length >= 3);
      for (const [route, h] of routes) assert.equal(h, value, `${String(route)} lacks the header`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  void it('never go to another origin, like the key (an absolute URL elsewhere)', async () => {
    const c = client({ [name]: value, 'x-echo-key': '${apiKey}' });
    const err = await failure(c.http.request('GET', `${gw.videoUrl}/v1/models`));
    assert.equal(err.status, 401);
    const [r] = gw.requests();
    assert.equal(r?.host, 'video');
    assert.equal(r?.auth, 'missing');
    assert.equal(r?.headers[name], undefined);
    assert.equal(r?.headers['x-echo-key'], undefined);
  });
});
