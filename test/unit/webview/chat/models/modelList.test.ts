// The model list (webview/chat/models/modelList.ts): what the gateway lists, and its error as a note.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createModelListModel } from '../../../../../webview/chat/models/modelList';

void test('the list answers for the models it has; an error comes as a warning note', () => {
  const notes: string[] = [];
  const m = createModelListModel({ note: (text, level) => notes.push(`${level}: ${text}`) });
  m.onHost({
    type: 'models/list',
    models: [{ id: 'gw-vision', capabilities: ['vision'], supportsImages: true }],
    loading: true,
    error: { title: 'Models unavailable', detail: 'HTTP 502' } as never,
  });
  assert.equal(m.info('gw-vision')?.supportsImages, true);
  assert.equal(m.info('gw-other'), undefined);
  assert.equal(m.loading.value, true);
  assert.deepEqual(notes, ['warning: Models unavailable: HTTP 502']);
});
