// The composer model (webview/chat/models/composer.ts): what Send posts and takes out of the box,
// what a refused request gives back, the edit of the last question, the notes and the saved state.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EditorContext, ImageAttachment, MentionItem } from '../../../../../src/shared/protocol';
import { createComposerModel, type LocalState } from '../../../../../webview/chat/models/composer';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createModelListModel } from '../../../../../webview/chat/models/modelList';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { recordPosts } from '../../nodePage';
import { conversation, DEFAULTS } from './fixtures';

const IMAGE: ImageAttachment = { name: 'a.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AA==', bytes: 1 };
const CONTEXT: EditorContext = { fileName: '/ws/a.ts', language: 'typescript', text: 'x', startLine: 0, endLine: 0 };
const MENTION: MentionItem = { kind: 'file', label: 'a.ts', ref: 'file:///ws/a.ts' };

function setUp(model = 'gw-chat') {
  const posted = recordPosts();
  const { t } = createStringsModel();
  const conv = createConversationModel({ t });
  conv.show(conversation('c1'), DEFAULTS, model, '');
  const notes: string[] = [];
  const modelList = createModelListModel({ note: (text) => notes.push(text) });
  const composer = createComposerModel({ conversation: conv, modelList, t });
  return { posted, conv, modelList, composer };
}

void test('Send posts the draft with its attachments and empties the composer; nothing while busy or empty', () => {
  const { posted, conv, composer } = setUp();
  composer.send();
  assert.equal(posted.length, 0, 'an empty composer sends nothing');
  composer.draft.value = 'what does a.ts do?';
  composer.images.value = [IMAGE];
  composer.contexts.value = [CONTEXT];
  composer.mentions.value = [MENTION];
  composer.send();
  const sent = posted[0];
  assert.equal(sent?.type, 'chat/send');
  assert.deepEqual(sent?.type === 'chat/send' && { ...sent, requestId: 'r' }, {
    type: 'chat/send',
    requestId: 'r',
    text: 'what does a.ts do?',
    images: [IMAGE],
    contexts: [CONTEXT],
    mentions: [MENTION],
  });
  assert.equal(conv.busy.value, true);
  assert.deepEqual(
    [composer.draft.value, composer.images.value, composer.contexts.value, composer.mentions.value],
    ['', [], [], []],
  );
  composer.draft.value = 'another';
  composer.send();
  assert.equal(posted.length, 1, 'no second request while one runs');
});

void test('a request the host refuses gives back what Send took, keeping what was typed since', () => {
  const { posted, composer } = setUp();
  composer.draft.value = 'first';
  composer.images.value = [IMAGE];
  composer.send();
  const requestId = (posted[0] as { requestId: string }).requestId;
  composer.images.value = [{ ...IMAGE, name: 'b.png' }];
  composer.restoreUnconfirmed('another-request');
  assert.equal(composer.draft.value, '', 'another request’s end gives nothing back');
  composer.restoreUnconfirmed(requestId);
  assert.equal(composer.draft.value, 'first');
  assert.deepEqual(
    composer.images.value.map((i) => i.name),
    ['a.png', 'b.png'],
  );
  composer.restoreUnconfirmed(requestId);
  assert.equal(composer.images.value.length, 2, 'given back once');
});

void test('a request the host took over (confirmed) is not given back', () => {
  const { posted, composer } = setUp();
  composer.draft.value = 'kept by the host';
  composer.send();
  const requestId = (posted[0] as { requestId: string }).requestId;
  composer.confirm(requestId);
  composer.restoreUnconfirmed(requestId);
  assert.equal(composer.draft.value, '');
});

void test('an edit resends the last question; a refused edit is an edit again', () => {
  const { posted, composer } = setUp();
  composer.beginEdit('the old question');
  assert.equal(composer.editing.value, true);
  composer.draft.value = 'the new question';
  composer.images.value = [IMAGE];
  composer.send();
  const sent = posted[0] as { type: string; requestId: string; text: string };
  assert.deepEqual([sent.type, sent.text], ['chat/editResend', 'the new question']);
  assert.equal(composer.editing.value, false);
  assert.equal(composer.images.value.length, 1, 'an edit keeps the attachments where they are');
  composer.restoreUnconfirmed(sent.requestId);
  assert.equal(composer.draft.value, 'the new question');
  assert.equal(composer.editing.value, true);
});

void test('an editor context joins the composer and suggests its question only into an empty box', () => {
  const { composer } = setUp();
  composer.addContext(CONTEXT, 'Explain this');
  assert.equal(composer.draft.value, 'Explain this');
  composer.addContext(CONTEXT, 'Something else');
  assert.equal(composer.draft.value, 'Explain this');
  assert.equal(composer.contexts.value.length, 2);
  composer.removeContext(0);
  assert.equal(composer.contexts.value.length, 1);
});

void test('images for a model that lists no image input, and picked images’ problems, are notes', () => {
  const { composer, modelList } = setUp('gw-text');
  modelList.onHost({
    type: 'models/list',
    models: [{ id: 'gw-text', capabilities: [], supportsImages: false }],
    loading: false,
  });
  composer.onHost({ type: 'images/picked', images: [IMAGE], problems: ['big.png is too large'] });
  assert.deepEqual(
    composer.notes.value.map((n) => [n.level, n.text]),
    [
      ['warning', 'big.png is too large'],
      ['warning', 'gw-text does not list image input; the gateway may refuse the attached images.'],
    ],
  );
  composer.removeImage(0);
  assert.deepEqual(composer.notes.value, [], 'no image, no warning');
  composer.note('Saved.', 'info');
  assert.deepEqual(composer.notes.value, [{ level: 'info', text: 'Saved.' }]);
});

void test('files that are not images or are too large are refused and reported to the host', async () => {
  const { posted, composer } = setUp();
  composer.maxImageBytes.value = 1024 * 1024;
  await composer.addFiles([
    new File(['x'], 'notes.txt', { type: 'text/plain' }),
    new File([new Uint8Array(2 * 1024 * 1024)], 'huge.png', { type: 'image/png' }),
  ]);
  assert.deepEqual(
    posted.map((m) => m.type),
    ['images/rejected', 'images/rejected'],
  );
  assert.deepEqual(
    composer.notes.value.map((n) => n.text),
    [
      'notes.txt is not an image.',
      'huge.png is 2.0 MB; the limit is 1.0 MB (setting gatewayStudio.chat.maxImageMegabytes).',
    ],
  );
  assert.deepEqual(composer.images.value, []);
});

void test('what the composer holds is saved with setState and comes back from getState', () => {
  const saved: LocalState = {
    draft: 'half a question',
    images: [IMAGE],
    contexts: [],
    mentions: [MENTION],
    editing: true,
  };
  let state: unknown = saved;
  const api = { postMessage: () => undefined, getState: () => state, setState: (s: unknown) => (state = s) };
  const { composer } = setUp();
  composer.persist(api);
  assert.equal(composer.draft.value, 'half a question');
  assert.deepEqual(composer.mentions.value, [MENTION]);
  assert.equal(composer.editing.value, true);
  composer.draft.value = 'a whole question';
  assert.deepEqual(state, { ...saved, draft: 'a whole question' });
});
