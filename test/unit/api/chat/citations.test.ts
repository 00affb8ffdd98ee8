// Web search citations in both wire shapes, as links under the answer, and the searches' notice;
// read through the chat accumulator (OpenRouter's web plugin) and the Responses accumulator.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../../../src/api/chat/accumulator';
import { addCitations, withSources, type Citation } from '../../../../src/api/chat/citations';
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

  void it('lists them as numbered links under the text; a hostile title cannot break the link', () => {
    assert.equal(withSources('Answer.', []), 'Answer.');
    const md = withSources('Answer.\n', [
      { url: 'https://a.example/x y', title: 'A](javascript:x)' },
      { url: 'https://b.example/' },
    ]);
    assert.equal(
      md,
      'Answer.\n\nSources:\n\n1. [A\\](javascript:x)](<https://a.example/x%20y>)\n2. [b.example](<https://b.example/>)',
    );
  });

  void it('chat completions: annotations on the delta or the message become links; searches a notice', () => {
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
    assert.equal(r.message.content, 'Rust 1.80 is out.\n\nSources:\n\n1. [Rust blog](<https://blog.example/rust>)');
    assert.deepEqual(r.citations, [{ url: 'https://blog.example/rust', title: 'Rust blog' }]);
    assert.equal(r.webSearches, 1);
    assert.match(r.notices?.[0] ?? '', /Searched the web 1 time\(s\); the cost the relay reported includes/);
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
    assert.equal(
      r.message.content,
      'It rained.\n\nSources:\n\n1. [Weather](<https://weather.example/today>)\n2. [News](<https://news.example/rain>)',
    );
    assert.equal(r.webSearches, 1);
    assert.match(r.notices?.[0] ?? '', /does not report what the searches cost/);
  });
});
