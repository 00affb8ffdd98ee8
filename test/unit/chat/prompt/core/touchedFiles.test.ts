// Which files a conversation touches, for scoped instructions (src/chat/prompt/core/touchedFiles.ts):
// mentions, tool reads and edits from the stored calls, the reason a scoped file applies, and
// paths that try to leave the workspace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGlob } from '../../../../../src/chat/tools/core/glob';
import {
  conversationTouches,
  insideRoot,
  matchingTouch,
  type Touch,
} from '../../../../../src/chat/prompt/core/touchedFiles';
import type { Conversation } from '../../../../../src/shared/protocol';

const ONE = [{ name: 'app', path: '/ws/app' }];
const TWO = [...ONE, { name: 'lib', path: '/ws/lib' }];

function conversation(messages: unknown[]): Pick<Conversation, 'messages'> {
  return { messages: messages as Conversation['messages'] };
}
const user = (...paths: string[]) => ({
  id: `u${paths.join()}`,
  role: 'user',
  text: 'look',
  images: [],
  contexts: [],
  attachments: paths.map((path) => ({ kind: 'file', label: path, path, text: '' })),
  createdAt: 1,
});
const calls = (...c: [string, unknown][]) => ({
  id: 'a',
  role: 'assistant',
  content: '',
  status: 'done',
  requestedModel: 'm',
  createdAt: 2,
  toolCalls: c.map(([name, args], i) => ({
    id: `c${i}`,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  })),
});

void test('mentions, tool reads and tool edits are touches; other tools and broken arguments are not', () => {
  const c = conversation([
    user('src/a.ts'),
    calls(
      ['read_file', { path: 'src/b.ts' }],
      ['edit_file', { path: './src/c.ts', oldText: 'a', newText: 'b' }],
      ['write_file', { path: 'src\\d.ts', content: '' }],
      ['search_text', { query: 'x', include: 'src/e.ts' }],
      ['read_file', '{not json'],
      ['read_file', { path: 42 }],
    ),
  ]);
  assert.deepEqual(conversationTouches(c, ONE), [
    { folder: 0, relative: 'src/a.ts', how: 'mentioned' },
    { folder: 0, relative: 'src/b.ts', how: 'read' },
    { folder: 0, relative: 'src/c.ts', how: 'edited' },
    { folder: 0, relative: 'src/d.ts', how: 'edited' },
  ]);
});

void test('without scoped files to match only the mentions are read, not the tool calls', () => {
  const c = conversation([user('src/a.ts'), calls(['edit_file', { path: 'src/b.ts' }])]);
  assert.deepEqual(conversationTouches(c, ONE, false), [{ folder: 0, relative: 'src/a.ts', how: 'mentioned' }]);
});

void test('multi-root: mentions name their folder first; tool paths may, or are absolute', () => {
  const c = conversation([
    user('lib/src/x.ts', 'other/y.ts'),
    calls(
      ['read_file', { path: 'lib/z.ts' }],
      ['edit_file', { path: '/ws/app/src/w.ts' }],
      ['read_file', { path: 'q.ts' }],
    ),
  ]);
  assert.deepEqual(conversationTouches(c, TWO), [
    { folder: 1, relative: 'src/x.ts', how: 'mentioned' },
    { folder: 1, relative: 'z.ts', how: 'read' },
    { folder: 0, relative: 'src/w.ts', how: 'edited' },
    { folder: 0, relative: 'q.ts', how: 'read' },
  ]);
});

void test('paths that leave the workspace touch nothing: .., absolute elsewhere, a sibling folder with the same prefix', () => {
  for (const p of [
    '../outside/a.ts',
    'src/../../etc/passwd',
    '/etc/passwd',
    '/ws/app-evil/a.ts',
    'C:\\Windows\\x.ts',
    '',
    '.',
  ])
    assert.equal(insideRoot(p, ONE), undefined, p);
  assert.deepEqual(insideRoot('/ws/app/src/a.ts', ONE), { folder: 0, relative: 'src/a.ts' });
  assert.deepEqual(insideRoot('C:\\ws\\app\\a.ts', [{ name: 'app', path: '/c:/ws/app' }]), {
    folder: 0,
    relative: 'a.ts',
  });
});

void test('a scoped file applies through a matching touch of its folder, mentions first, then edits, reads, the active file', () => {
  const ts = { folder: 0, globs: [compileGlob('src/**/*.ts')] };
  const t = (relative: string, how: Touch['how'], folder = 0): Touch => ({ folder, relative, how });
  assert.equal(matchingTouch(ts, [t('README.md', 'mentioned')]), undefined);
  assert.deepEqual(matchingTouch(ts, [t('src/a.ts', 'read'), t('src/b.ts', 'edited')]), t('src/b.ts', 'edited'));
  assert.deepEqual(
    matchingTouch(ts, [t('src/a.ts', 'active'), t('src/m.ts', 'mentioned')]),
    t('src/m.ts', 'mentioned'),
  );
  assert.deepEqual(matchingTouch(ts, [t('src/a.ts', 'read'), t('src/b.ts', 'read')]), t('src/b.ts', 'read'));
  assert.deepEqual(matchingTouch(ts, [t('src/a.ts', 'active')]), t('src/a.ts', 'active'));
  // Another folder's file does not make a workspace folder's instructions apply; a user-level file
  // (folder undefined) applies in any folder.
  assert.equal(matchingTouch(ts, [t('src/a.ts', 'edited', 1)]), undefined);
  assert.deepEqual(
    matchingTouch({ ...ts, folder: undefined }, [t('src/a.ts', 'edited', 1)]),
    t('src/a.ts', 'edited', 1),
  );
});

void test('a hostile pattern cannot match a file outside the workspace a tool asked for', () => {
  const c = conversation([calls(['read_file', { path: '../../etc/passwd' }], ['read_file', { path: '/etc/passwd' }])]);
  const touches = conversationTouches(c, ONE);
  assert.deepEqual(touches, []);
  const hostile = { folder: 0, globs: [compileGlob('../../**'), compileGlob('/etc/**'), compileGlob('**')] };
  assert.equal(matchingTouch(hostile, touches), undefined);
});
