// The @-picker model (webview/chat/models/mentions.ts): `@` at a word start opens it and asks the
// host, answers fill it, picking makes a chip and takes `@query` out of the message.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MentionItem } from '../../../../../src/shared/protocol';
import { createComposerModel } from '../../../../../webview/chat/models/composer';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createMentionsModel, mentionAt } from '../../../../../webview/chat/models/mentions';
import { createModelListModel } from '../../../../../webview/chat/models/modelList';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { recordPosts } from '../../nodePage';

const ROWS: MentionItem[] = [
  { kind: 'file', label: 'src/app.ts', ref: 'file:///ws/src/app.ts' },
  { kind: 'file', label: 'src/api.ts', ref: 'file:///ws/src/api.ts' },
  { kind: 'problems', label: 'Problems', ref: '' },
];

function setUp() {
  const posted = recordPosts();
  const { t } = createStringsModel();
  const conversation = createConversationModel({ t });
  const composer = createComposerModel({ conversation, modelList: createModelListModel({ note: () => undefined }), t });
  return { posted, composer, mentions: createMentionsModel({ composer }) };
}

void test('an @ at a word start up to the caret is a mention query; one inside a word is not', () => {
  assert.deepEqual(mentionAt('look at @src/a', 14), { start: 8, query: 'src/a' });
  assert.deepEqual(mentionAt('@', 1), { start: 0, query: '' });
  assert.equal(mentionAt('me@example.com', 14), undefined);
  assert.equal(mentionAt('look at @src now', 16), undefined, 'the caret left the word');
});

void test('typing a query asks the host once per change; its rows fill the picker, an older answer does not replace them', () => {
  const { posted, mentions } = setUp();
  mentions.update('see @ap', 7);
  mentions.update('see @ap', 7);
  assert.equal(posted.length, 1, 'the same query is asked once');
  const first = posted[0] as { type: string; queryId: string; query: string };
  assert.deepEqual([first.type, first.query], ['mentions/query', 'ap']);
  assert.equal(mentions.picker.value?.loading, true);
  mentions.update('see @app', 8);
  const second = posted[1] as { queryId: string };
  mentions.onHost({ type: 'mentions/results', queryId: second.queryId, items: ROWS.slice(0, 1) });
  assert.deepEqual(mentions.picker.value?.source, ROWS.slice(0, 1));
  assert.equal(mentions.picker.value?.loading, false);
  mentions.onHost({ type: 'mentions/results', queryId: first.queryId, items: ROWS });
  assert.deepEqual(mentions.picker.value?.source, ROWS.slice(0, 1), 'the answer to an older query is not shown');
  mentions.update('see app', 7);
  assert.equal(mentions.picker.value, undefined, 'no @ before the caret: closed');
});

void test('arrows move around the rows; picking makes a chip once and takes @query out of the message', () => {
  const { posted, mentions, composer } = setUp();
  composer.draft.value = 'explain @src please';
  mentions.update(composer.draft.value, 12);
  const q = posted[0] as { queryId: string };
  mentions.onHost({ type: 'mentions/results', queryId: q.queryId, items: ROWS.slice(0, 2) });
  mentions.move(-1);
  assert.equal(mentions.picker.value?.active, 1, 'up from the first row is the last');
  mentions.pick();
  assert.equal(composer.draft.value, 'explain please');
  assert.deepEqual(mentions.chips.value, [ROWS[1]]);
  assert.equal(mentions.picker.value, undefined);
  mentions.add([ROWS[1]!, ROWS[2]!]);
  assert.deepEqual(mentions.chips.value, [ROWS[1], ROWS[2]], 'a chip is added once');
  mentions.remove(0);
  assert.deepEqual(mentions.chips.value, [ROWS[2]]);
});

void test('chips the host adds (a drop) come with their problems as notes', () => {
  const { mentions, composer } = setUp();
  mentions.onHost({ type: 'mentions/add', items: [ROWS[0]!], problems: ['b.bin is not a text file'] });
  assert.deepEqual(composer.mentions.value, [ROWS[0]]);
  assert.deepEqual(composer.notes.value, [{ level: 'warning', text: 'b.bin is not a text file' }]);
});
