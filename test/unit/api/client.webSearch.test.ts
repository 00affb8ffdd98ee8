// Web search as a per-model override, through the client against the local gateway: OpenRouter's
// web plugin on chat completions, the web_search tool on responses; the citations come back as
// links under the answer and the search as a line with the cost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../src/api/client';
import { readModelCalls } from '../../../src/api/models/modelCall';
import { useGateway } from '../../support/helpers';

const gw = useGateway();
const client = (entry: Record<string, unknown>) =>
  new GatewayClient(
    { baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 1 },
    { routing: { settingsFor: (m) => readModelCalls({ [m]: entry }).byId[m] } },
  );
const ask = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'news today' }] };
const lastBody = () => gw.requests().at(-1)?.body as Record<string, unknown>;
const SOURCES = '\n\nSources:\n\n1. [Local gateway search result](<https://search.gateway.test/result>)';

void describe('web search where the relay offers it', () => {
  void it('chat completions: the web plugin is asked; the citation is a link under the answer', async () => {
    const c = client({ webSearch: true });
    const streamed = await c.streamChat(ask);
    assert.deepEqual(lastBody().plugins, [{ id: 'web' }]);
    assert.equal(streamed.message.content, `Echo: news today${SOURCES}`);
    assert.deepEqual(streamed.citations, [
      { url: 'https://search.gateway.test/result', title: 'Local gateway search result' },
    ]);
    assert.equal(streamed.webSearches, 1);
    assert.match(streamed.notices?.[0] ?? '', /Searched the web 1 time/);
    const whole = await c.chat(ask);
    assert.equal(whole.message.content, `Echo: news today${SOURCES}`);
  });

  void it('responses: the web_search tool is asked; the citation and the search come back', async () => {
    const c = client({ webSearch: true, protocol: 'responses' });
    const streamed = await c.streamChat(ask);
    assert.deepEqual(lastBody().tools, [{ type: 'web_search' }]);
    assert.equal(streamed.message.content, `Echo: news today${SOURCES}`);
    assert.equal(streamed.webSearches, 1);
    assert.equal((await c.chat(ask)).message.content, `Echo: news today${SOURCES}`);
  });

  void it('without the override nothing is asked and nothing is added', async () => {
    const r = await client({}).streamChat(ask);
    assert.equal(lastBody().plugins, undefined);
    assert.equal(r.message.content, 'Echo: news today');
    assert.equal(r.citations, undefined);
  });
});
