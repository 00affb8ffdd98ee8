// How a web-searching answer shows its search: numbered links under the text (a hostile title
// cannot break out of its link) and a line on the searches and whether the cost includes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presentSearch, withSources } from '../../../../src/api/chat/searchNotes';
import type { ChatResult } from '../../../../src/api/chat/wire';

void describe('searchNotes', () => {
  void it('lists the sources as numbered links under the text; a hostile title cannot break the link', () => {
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

  void it('presents an answer: links under its text, the searches on its notices, the cost said honestly', () => {
    const r: ChatResult = {
      message: { role: 'assistant', content: 'Rust 1.80 is out.' },
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.02 },
      citations: [{ url: 'https://blog.example/rust', title: 'Rust blog' }],
      webSearches: 1,
      notices: ['Answered by relay'],
    };
    presentSearch(r);
    assert.equal(r.message.content, 'Rust 1.80 is out.\n\nSources:\n\n1. [Rust blog](<https://blog.example/rust>)');
    assert.equal(r.notices?.[0], 'Answered by relay');
    assert.match(
      r.notices?.[1] ?? '',
      /Searched the web 1 time\(s\); the cost the relay reported includes the searches/,
    );
    const bare: ChatResult = { message: { role: 'assistant', content: null }, webSearches: 2 };
    presentSearch(bare);
    assert.equal(bare.message.content, null);
    assert.match(
      bare.notices?.[0] ?? '',
      /Searched the web 2 time\(s\); the relay does not report what the searches cost/,
    );
  });
});
