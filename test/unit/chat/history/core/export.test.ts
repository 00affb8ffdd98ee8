import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conversationToMarkdown } from '../../../../../src/chat/history/core/export';
import { newConversation } from '../../../../../src/chat/history/core/store';

void test('export writes every turn in order, with tool calls and results fenced safely and images by name only', () => {
  const c = newConversation(Date.UTC(2026, 10, 21, 9, 30));
  c.model = 'gw-chat';
  c.messages.push(
    {
      id: 'u1',
      role: 'user',
      text: 'Read the file',
      images: [{ name: 'shot.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AAAA', bytes: 2048 }],
      contexts: [],
      createdAt: 1,
    },
    {
      id: 'a1',
      role: 'assistant',
      content: '',
      status: 'done',
      requestedModel: 'gw-chat',
      createdAt: 2,
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } }],
    },
    { id: 't1', role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'has ``` inside', createdAt: 3 },
    {
      id: 'a2',
      role: 'assistant',
      content: 'It says hi.',
      status: 'stopped',
      requestedModel: 'gw-latest',
      model: 'gw-chat-2026-11',
      createdAt: 4,
    },
  );
  const md = conversationToMarkdown(c);
  assert.match(md, /^# Read the file\n/);
  assert.match(md, /_2026-11-21 09:30 UTC · gw-chat_/);
  assert.ok(md.indexOf('## You') < md.indexOf('**Tool: read_file**'));
  assert.match(md, /```json\n\{\n {2}"path": "a\.md"\n\}\n```/);
  assert.match(md, /````\nhas ``` inside\n````/, 'a fence longer than the backticks inside');
  assert.match(md, /## Assistant \(gw-chat-2026-11\) \(stopped\)\n\nIt says hi\./);
  assert.match(md, /shot\.png \(image\/png, 2 KB\)/);
  assert.doesNotMatch(md, /base64/);
});
