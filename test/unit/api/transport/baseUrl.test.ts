// Base URL rules (spec 4.7) and the model list (spec 2.3), the latter against the local gateway.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseBaseUrl, resolveAgainstBase } from '../../../../src/api/transport/baseUrl';
import { GatewayClient } from '../../../../src/api/client';
import { GatewayError } from '../../../../src/api/transport/errors';
import { isVideoModel, parseModelList } from '../../../../src/api/models/models';
import { useGateway } from '../../../support/helpers';

function configError(input: string): GatewayError {
  try {
    normaliseBaseUrl(input);
  } catch (e) {
    assert.ok(e instanceof GatewayError);
    assert.equal(e.kind, 'config');
    return e;
  }
  assert.fail(`"${input}" was accepted`);
}

void describe('base URL normalisation (spec 4.7)', () => {
  void it('a host, a host with /v1 and a trailing slash all give the /v1 root', () => {
    for (const input of [
      'https://gw.example.com',
      'https://gw.example.com/',
      'https://gw.example.com/v1',
      'https://gw.example.com/v1/',
      'https://gw.example.com//v1//',
    ]) {
      assert.equal(normaliseBaseUrl(input).url, 'https://gw.example.com/v1', input);
    }
  });

  void it('a full /chat/completions URL pasted by mistake is cut back to /v1, with a warning', () => {
    const r = normaliseBaseUrl('https://gw.example.com/v1/chat/completions');
    assert.equal(r.url, 'https://gw.example.com/v1');
    assert.match(r.warnings.join(' '), /\/chat\/completions/);
    assert.equal(normaliseBaseUrl('https://gw.example.com/chat/completions').url, 'https://gw.example.com/v1');
  });

  void it('surrounding whitespace is trimmed', () => {
    assert.equal(normaliseBaseUrl('  https://gw.example.com/v1 \n').url, 'https://gw.example.com/v1');
  });

  void it('a path prefix before /v1 is kept', () => {
    assert.equal(normaliseBaseUrl('https://gw.example.com/openai/v1/models').url, 'https://gw.example.com/openai/v1');
    assert.equal(normaliseBaseUrl('https://gw.example.com/openai').url, 'https://gw.example.com/openai/v1');
  });

  void it('a bare host gets https://, a bare loopback host http://, each with a warning', () => {
    const r = normaliseBaseUrl('gw.example.com');
    assert.equal(r.url, 'https://gw.example.com/v1');
    assert.equal(r.warnings.length, 1);
    assert.equal(normaliseBaseUrl('localhost:8080').url, 'http://localhost:8080/v1');
  });

  void it('non-http(s) schemes are refused with a clear error', () => {
    assert.match(configError('ftp://gw.example.com').message, /only https:\/\/ and http:\/\//);
    assert.match(configError('file:///etc/hosts').message, /file/);
    assert.match(configError('javascript:alert(1)').message, /https:\/\//);
  });

  void it('an empty value and unparsable addresses are refused, naming the setting', () => {
    assert.match(configError('   ').message, /gatewayStudio\.baseUrl/);
    configError('https://');
  });

  void it('credentials in the URL are refused (the key goes in secret storage)', () => {
    assert.match(configError('https://user:pw@gw.example.com').message, /Set API Key/);
  });

  void it('http:// to a non-loopback host is refused unless the user allowed it, then flagged', () => {
    assert.match(configError('http://gw.example.com/v1').message, /unencrypted.*allowInsecureHttp/);
    const r = normaliseBaseUrl('http://gw.example.com/v1', 'gatewayStudio.baseUrl', true);
    assert.equal(r.url, 'http://gw.example.com/v1');
    assert.match(r.warnings.join(' '), /unencrypted/);
    for (const local of ['http://127.0.0.1:9000', 'http://localhost', 'http://[::1]:8080']) {
      assert.deepEqual(normaliseBaseUrl(local).warnings, [], local);
    }
  });

  void it('*.localhost and localhost. are not loopback for plain http: the DNS server may answer any address for them', () => {
    for (const named of ['http://gw.localhost:8080/v1', 'http://localhost.:8080/v1', 'http://a.b.localhost/v1'])
      assert.match(configError(named).message, /unencrypted.*allowInsecureHttp/, named);
    assert.equal(normaliseBaseUrl('dev.localhost:8080').url, 'https://dev.localhost:8080/v1');
  });

  void it('a relative /v1/ result path is prefixed with the host root, an absolute URL is kept (spec 2.6)', () => {
    assert.equal(
      resolveAgainstBase('https://v.example.com/v1', '/v1/videos/x/content'),
      'https://v.example.com/v1/videos/x/content',
    );
    assert.equal(resolveAgainstBase('https://v.example.com/v1', '/videos/x'), 'https://v.example.com/v1/videos/x');
    assert.equal(
      resolveAgainstBase('https://v.example.com/v1', 'https://cdn.example.com/a.mp4'),
      'https://cdn.example.com/a.mp4',
    );
  });
});

void describe('GET /v1/models (spec 2.3)', () => {
  const gw = useGateway();

  void it('the {data: [...]} envelope is read and capabilities and modalities are kept', async () => {
    const models = await new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid }).listModels();
    const vision = models.find((m) => m.id === 'gw-vision');
    assert.ok(vision?.capabilities?.includes('image'));
    const video = models.find((m) => m.id === 'vendor-image-video');
    assert.ok(video && isVideoModel(video));
    assert.deepEqual(video.modalities, ['video']);
  });

  void it('a bare array envelope gives the same models', async () => {
    const c = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    const normal = await c.listModels();
    gw.fault({ match: { path: '/v1/models' }, modelsEnvelope: 'bare' });
    const bare = await c.listModels();
    assert.deepEqual(bare, normal);
  });

  void it('the video host lists the video models too', async () => {
    const models = await new GatewayClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid }).listModels();
    assert.deepEqual(models.map((m) => m.id).sort(), ['vendor-image-video', 'vendor-video-1.5']);
  });

  void it('records without a valid id are dropped and reported; a list of only invalid records is an error', () => {
    const dropped: string[] = [];
    const r = parseModelList(
      { data: [{ id: 'a', capabilities: ['streaming'] }, { object: 'model' }, { id: 5 }, 'b'] },
      (w) => dropped.push(w),
    );
    assert.deepEqual(
      r.map((m) => m.id),
      ['a', 'b'],
    );
    assert.equal(dropped.length, 2);
    assert.throws(
      () => parseModelList({ data: [{ nope: 1 }] }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_response',
    );
    assert.throws(() => parseModelList({ object: 'list' }), /neither an array/);
  });
});
