// The words for a cut-off transfer depend on what was cut: a video download must not be called
// an answer (it was, while both shared the chat's title).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { describeError } from '../../src/api/errors';
import { GatewayClient } from '../../src/api/client';
import { HttpClient } from '../../src/api/http';
import { VideoClient } from '../../src/api/video';
import { finishedVideo, gatewayFailure, useGateway, useTempDir } from './helpers';

const gw = useGateway({ videoStepMs: 20, videoSteps: 2 });
const dir = useTempDir('gws-cut-');

void it('a video download cut short is described as a download, with the advice to resume the task', async () => {
  const c = new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 }));
  const id = await finishedVideo(c, 'cut me short');
  gw.fault({ match: { path: '/content' }, contentTruncate: 100 });
  const err = await gatewayFailure(c.download(id, join(dir.path, 'cut.mp4')));
  assert.equal(err.kind, 'truncated');
  const d = describeError(err);
  assert.equal(d.title, 'The download was cut off');
  assert.match(d.detail, /resume the task/);
});

void it('a chat answer cut short is still described as an answer, with its partial text kept', async () => {
  const chat = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  gw.fault({ match: { path: '/chat/completions' }, dropAfterBytes: 3000 });
  const err = await gatewayFailure(chat.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: '#long 300' }] }));
  assert.equal(err.kind, 'truncated', err.message);
  assert.ok((err.partial?.message.content ?? '').length > 0, 'the text received so far is kept');
  assert.equal(describeError(err).title, 'The answer was cut off');
});
