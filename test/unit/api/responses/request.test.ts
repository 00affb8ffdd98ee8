import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toResponsesBody } from '../../../../src/api/responses/request';

void test('messages become input items; tools, choice, limits and format take their Responses names', () => {
  const body = toResponsesBody(
    {
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'https://x/a.png', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"p":1}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'data' },
        { role: 'system', content: 'Summary so far.' },
      ],
      tools: [
        { type: 'function', function: { name: 'read_file', description: 'Read', parameters: { type: 'object' } } },
      ],
      tool_choice: { type: 'function', function: { name: 'read_file' } },
      max_tokens: 100,
      stop: ['x'],
      presence_penalty: 1,
      response_format: { type: 'json_object' },
    },
    true,
    { reasoningEffort: 'low' },
  );
  assert.deepEqual(body, {
    model: 'gpt-5',
    stream: true,
    store: false,
    instructions: 'Be brief.',
    include: ['reasoning.encrypted_content'],
    reasoning: { summary: 'auto', effort: 'low' },
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'https://x/a.png', detail: 'low' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.', annotations: [] }] },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"p":1}' },
      { type: 'function_call_output', call_id: 'c1', output: 'data' },
      { role: 'developer', content: [{ type: 'input_text', text: 'Summary so far.' }] },
    ],
    tools: [
      { type: 'function', name: 'read_file', description: 'Read', parameters: { type: 'object' }, strict: false },
    ],
    tool_choice: { type: 'function', name: 'read_file' },
    max_output_tokens: 100,
    text: { format: { type: 'json_object' } },
  });
});

void test('without reasoning fields when the gateway refused them; the effort alone still goes', () => {
  const body = toResponsesBody({ model: 'm', messages: [{ role: 'user', content: 'q' }] }, false, {
    askReasoning: false,
    reasoningEffort: 'high',
  });
  assert.equal(body.include, undefined);
  assert.deepEqual(body.reasoning, { effort: 'high' });
  assert.equal(body.stream, false);
});
