// The gateway client's errors (src/api/transport/errors.ts, describeError.ts): which cause a 404 is blamed
// on, and the words for a transfer that was cut short.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { notFoundCause } from '../../../../src/api/transport/errors';
import { describeError } from '../../../../src/contracts/errorWords';
import { gatewayFailure, useGateway, finishedVideo, useTempDir } from '../../../support/helpers';
import { join } from 'node:path';
import { HttpClient } from '../../../../src/api/transport/http';
import { VideoClient } from '../../../../src/api/video/video';
import { saveTo } from '../../../../src/video/jobs/core/saveDownload';

// A chat request to a route the gateway does not have (a base URL without /v1 on a server that
// answers unknown routes with its error object, "Invalid URL (POST /…)") is blamed on the base
// URL, not on the model: the error object alone made it look like a model problem.
void describe('a 404 on a route the gateway does not serve', () => {
  const gw = useGateway();

  void it('a chat POST to a path the gateway does not serve names the base URL as the likelier cause', async () => {
    const client = new GatewayClient({ baseUrl: `${gw.url}/api`, apiKey: gw.keys.valid, maxRetries: 0 });
    const err = await gatewayFailure(client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(err.status, 404);
    assert.ok(err.type || err.code, 'the gateway answered with its error object, as many servers do');
    assert.match(err.message, /Invalid URL/);
    assert.equal(notFoundCause(err), 'baseUrl');
    assert.match(describeError(err).detail, /base URL is the likelier cause/);
  });

  void it('a model the gateway does not know is still blamed on the model', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const err = await gatewayFailure(
      client.chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    );
    assert.equal(notFoundCause(err), 'model');
  });
});

// The words for a cut-off transfer depend on what was cut: a video download must not be called
// an answer (it was, while both shared the chat's title).
void describe('the words for a cut-off transfer', () => {
  const gw = useGateway({ videoStepMs: 20, videoSteps: 2 });
  const dir = useTempDir('gws-cut-');

  void it('a video download cut short is described as a download, with the advice to resume the task', async () => {
    const c = new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 }));
    const id = await finishedVideo(c, 'cut me short');
    gw.fault({ match: { path: '/content' }, contentTruncate: 100 });
    const err = await gatewayFailure(c.download(id, saveTo(join(dir.path, 'cut.mp4'))));
    assert.equal(err.kind, 'truncated');
    const d = describeError(err);
    assert.equal(d.title, 'The download was cut off');
    assert.match(d.detail, /resume the task/);
  });

  void it('a chat answer cut short is still described as an answer, with its partial text kept', async () => {
    const chat = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    gw.fault({ match: { path: '/chat/completions' }, dropAfterBytes: 3000 });
    const err = await gatewayFailure(
      chat.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: '#long 300' }] }),
    );
    assert.equal(err.kind, 'truncated', err.message);
    assert.ok((err.partial?.message.content ?? '').length > 0, 'the text received so far is kept');
    assert.equal(describeError(err).title, 'The answer was cut off');
  });
});
