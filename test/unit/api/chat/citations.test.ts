// Web search citations in both wire shapes and the searches counted, read through the chat
// accumulator (OpenRouter's web plugin) and the Responses accumulator (how they show: searchNotes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../../../src/api/chat/accumulator';
import { addCitations, type Citation } from '../../../../src/api/chat/citations';
import { ResponsesAccumulator } from '../../../../src/api/responses/events';

void describe('citations', () => {
  void it('reads both shapes once per URL; other annotations and non-web links are skipped', () => {
    const out: Citation[] = [];
    addCitations(out, [
      { type: 'url_citation', url_citation: { url: 'https://a.example/1', title: ' A  one ', start_index: 0 } },
      { type: 'url_citation', url: 'https://b.example/2' },
      { type: 'url_citation', url: 'https://a.example/1', title: 'again' },
      { type: 'url_citation', url: 'javascript:alert(1)', title: 'x' },
      { type: 'file_citation', file_id: 'f' },
      'junk',
    ]);
    addCitations(out, 'not a list');
    assert.deepEqual(out, [{ url: 'https://a.example/1', title: 'A one' }, { url: 'https://b.example/2' }]);
  });

  void it('chat completions: annotations on the delta are kept once; the usage counts the searches', () => {
    const acc = new ChatAccumulator();
    acc.push({ id: 'g', choices: [{ index: 0, delta: { content: 'Rust 1.80 is out.' } }] });
    acc.push({
      choices: [
        {
          index: 0,
          delta: {
            annotations: [
              { type: 'url_citation', url_citation: { url: 'https://blog.example/rust', title: 'Rust blog' } },
            ],
          },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 5,
        total_tokens: 10,
        cost: 0.02,
        server_tool_use: { web_search_requests: 1 },
      },
    });
    const r = acc.result();
    assert.equal(r.message.content, 'Rust 1.80 is out.');
    assert.deepEqual(r.citations, [{ url: 'https://blog.example/rust', title: 'Rust blog' }]);
    assert.equal(r.webSearches, 1);
  });

  void it('responses: annotation events, message parts and web_search_call items', () => {
    const acc = new ResponsesAccumulator();
    for (const e of [
      { type: 'response.output_item.done', item: { type: 'web_search_call', id: 'ws_1', status: 'completed' } },
      { type: 'response.output_text.delta', item_id: 'm1', delta: 'It rained.' },
      {
        type: 'response.output_text.annotation.added',
        annotation: { type: 'url_citation', url: 'https://weather.example/today', title: 'Weather' },
      },
      {
        type: 'response.completed',
        response: {
          id: 'r',
          status: 'completed',
          usage: { input_tokens: 3, output_tokens: 3 },
          output: [
            { type: 'web_search_call', id: 'ws_1' },
            {
              type: 'message',
              id: 'm1',
              content: [
                {
                  type: 'output_text',
                  text: 'It rained.',
                  annotations: [
                    { type: 'url_citation', url: 'https://weather.example/today', title: 'Weather' },
                    { type: 'url_citation', url: 'https://news.example/rain', title: 'News' },
                  ],
                },
              ],
            },
          ],
        },
      },
    ])
      acc.push(e);
    const r = acc.result();
    assert.equal(r.message.content, 'It rained.');
    assert.deepEqual(
      r.citations?.map((c) => c.title),
      ['Weather', 'News'],
    );
    assert.equal(r.webSearches, 1);
  });
});
