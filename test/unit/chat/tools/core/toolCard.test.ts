import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolCardUpdate } from '../../../../../src/chat/tools/core/runner';
import { cardFor, clip, prettyArgs } from '../../../../../src/chat/tools/core/toolCard';

const call = { id: 'call_1', type: 'function' as const, function: { name: 'read_file', arguments: '{"path":"a.ts"}' } };

void test('a card posts its call, its state and the caution as it stands at each post', () => {
  const posts: ToolCardUpdate[] = [];
  const card = cardFor((u) => posts.push(u), call, 'c1', { preview: 'command' });
  card.post('awaiting-approval', true);
  card.caution = { warning: 'secret file', askEveryTime: true };
  card.post('done', true, 'the text', '{}');
  assert.deepEqual(posts, [
    {
      conversationId: 'c1',
      callId: 'call_1',
      name: 'read_file',
      argumentsJson: '{\n  "path": "a.ts"\n}',
      state: 'awaiting-approval',
      readOnly: true,
      preview: 'command',
    },
    {
      conversationId: 'c1',
      callId: 'call_1',
      name: 'read_file',
      argumentsJson: '{}',
      state: 'done',
      readOnly: true,
      resultPreview: 'the text',
      warning: 'secret file',
      askEveryTime: true,
      preview: 'command',
    },
  ]);
});

void test('a tool provided by someone else (an MCP server) is named on every post of its card', () => {
  const posts: ToolCardUpdate[] = [];
  const card = cardFor((u) => posts.push(u), call, 'c1', { source: 'Tool "echo" of the MCP server "everything"' });
  card.post('awaiting-approval', true);
  card.post('denied', true);
  assert.deepEqual(
    posts.map((p) => p.source),
    ['Tool "echo" of the MCP server "everything"', 'Tool "echo" of the MCP server "everything"'],
  );
  cardFor((u) => posts.push(u), call, 'c1', {}).post('done', true);
  assert.equal('source' in posts.at(-1)!, false, 'our own tools name no source');
});

void test('a card without a listener posts nothing and does not throw', () => {
  assert.doesNotThrow(() => cardFor(undefined, call, 'c1', undefined).post('running', false));
});

void test('arguments are pretty-printed when they parse and shown raw when they do not', () => {
  assert.equal(prettyArgs('{"a":1}'), '{\n  "a": 1\n}');
  assert.equal(prettyArgs('{"a":'), '{"a":');
});

void test('long text is cut at the limit with a note that says how much there was', () => {
  assert.equal(clip('short', 10, 'the result'), 'short');
  assert.equal(clip('0123456789abc', 10, 'the result'), '0123456789\n… [the result was cut at 10 of 13 characters]');
});
