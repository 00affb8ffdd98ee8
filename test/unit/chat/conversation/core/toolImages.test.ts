// A tool's images in the stored conversation and the request: kept with the tool message (and
// through a reload), sent as a user message after all of the turn's tool messages (stopped calls'
// answers included), never between them; named as tool output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChatRequest } from '../../../../../src/chat/conversation/core/request';
import {
  MAX_TOOL_IMAGES,
  storedToolImages,
  toolImagesMessage,
} from '../../../../../src/chat/conversation/core/toolImages';
import { conversationSchema, type Conversation } from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, userConversation } from '../../../../support/helpers';

const PNG = `data:image/png;base64,${Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')}`;
const part = (url: string) => ({ type: 'image_url' as const, image_url: { url } });

void test('stored: data-URL images only, named after the tool, bytes without padding, at most the limit', () => {
  assert.deepEqual(storedToolImages(undefined, 't'), {});
  assert.deepEqual(storedToolImages([part('https://example.com/a.png')], 't'), {});
  const got = storedToolImages([part(PNG), part('data:text/html;base64,PGI+'), part(PNG)], 'shot');
  assert.deepEqual(
    got.images?.map((i) => [i.name, i.mime, i.bytes]),
    [
      ['shot image 1', 'image/png', 8],
      ['shot image 2', 'image/png', 8],
    ],
  );
  assert.equal(
    storedToolImages(
      Array.from({ length: 20 }, () => part(PNG)),
      't',
    ).images?.length,
    MAX_TOOL_IMAGES,
  );
  assert.equal(toolImagesMessage([{ name: 'a', toolCallId: 'x' }]), undefined);
});

void test('the request: images after every tool message of the turn, the stored conversation keeps them', () => {
  const c: Conversation = userConversation('go', { model: 'gw-vision' });
  const images = storedToolImages([part(PNG)], 'shot').images!;
  c.messages.push(
    {
      id: 'a1',
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } },
        { id: 'c2', type: 'function', function: { name: 'read', arguments: '{}' } },
        { id: 'c3', type: 'function', function: { name: 'never', arguments: '{}' } },
      ],
      status: 'done',
      requestedModel: 'gw-vision',
      createdAt: 2,
    },
    { id: 't1', role: 'tool', toolCallId: 'c1', name: 'shot', content: '[image attached]', images, createdAt: 3 },
    { id: 't2', role: 'tool', toolCallId: 'c2', name: 'read', content: 'text', createdAt: 4 },
    { id: 'u2', role: 'user', text: 'and now?', images: [], contexts: [], createdAt: 5 },
  );
  const reloaded = conversationSchema.parse(JSON.parse(JSON.stringify(c)));
  const req = buildChatRequest(reloaded, { model: 'gw-vision', systemPrompt: '', params: UNSET_PARAMS });
  assert.deepEqual(
    req.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'tool', 'tool', 'user', 'user'],
  );
  const carrier = req.messages[5]!;
  assert.ok(Array.isArray(carrier.content));
  assert.match(
    String(carrier.content[0]!.type === 'text' && carrier.content[0]!.text),
    /shot \(c1\).*not the user's words/,
  );
  assert.deepEqual(carrier.content[1], part(PNG));
  assert.equal(req.messages[4]!.content, 'The user stopped this tool call before it ran.');
  assert.equal(req.messages[6]!.content, 'and now?');
  assert.ok(!('images' in req.messages[2]!), 'the wire tool message carries text only');
});
