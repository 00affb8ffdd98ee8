// What the board page may send: the host drops anything else (a page showing workspace content is
// the side that could be made to send anything).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storyboardWebviewMessageSchema as schema } from '../../../../src/shared/protocol/storyboard';

void test('the page messages the editor sends are accepted', () => {
  for (const m of [
    { type: 'webview/ready' },
    { type: 'board/edit', edit: { kind: 'add', after: 'shot-1' } },
    { type: 'board/edit', edit: { kind: 'move', id: 'a', to: 2 } },
    { type: 'board/edit', edit: { kind: 'update', id: 'a', patch: { prompt: 'new' } } },
    { type: 'board/generate' },
    { type: 'board/generate', id: 'shot-2' },
    { type: 'board/takeAction', id: 'a', take: 1, action: 'open' },
    { type: 'board/frame', requestId: 1, dataUrl: 'data:image/png;base64,AAAA' },
    { type: 'board/frame', requestId: 1, error: 'cannot decode' },
  ])
    assert.ok(schema.safeParse(m).success, JSON.stringify(m));
});

void test('hostile page messages are refused: other actions, paths as ids, non-PNG frames, edits of other fields', () => {
  for (const m of [
    { type: 'board/takeAction', id: 'a', take: 1, action: 'deleteFile' },
    { type: 'board/takeAction', id: 'a', take: 9, action: 'open' },
    { type: 'board/generate', id: '../../x' },
    { type: 'board/edit', edit: { kind: 'delete', id: 'a/../b' } },
    { type: 'board/frame', requestId: 1, dataUrl: 'data:text/html;base64,PHNjcmlwdD4=' },
    { type: 'board/frame', requestId: 1, dataUrl: 'https://evil.example/x.png' },
    { type: 'board/edit', edit: { kind: 'update', id: 'a', patch: { images: ['../../.ssh/id_rsa'] } } },
    { type: 'board/approve' },
  ]) {
    const r = schema.safeParse(m);
    // An unknown key in `patch` is stripped, never passed on: what reaches the edit has only the prompt.
    if (r.success && r.data.type === 'board/edit' && r.data.edit.kind === 'update')
      assert.deepEqual(r.data.edit.patch, {});
    else assert.equal(r.success, false, JSON.stringify(m));
  }
});

void test('the export calls name a kind or a shot id, never a path', () => {
  for (const m of [
    { type: 'board/stitch', requestId: 1 },
    { type: 'board/saveExport', requestId: 2, kind: 'gif', bytes: new Uint8Array(4) },
    { type: 'board/readTake', requestId: 3, id: 'open' },
  ])
    assert.equal(schema.safeParse(m).success, true, JSON.stringify(m));
  // A stray `files` is stripped, never read: the host picks the files from the board.
  const stray = schema.safeParse({ type: 'board/stitch', requestId: 1, files: ['../../secret.mp4'] });
  assert.deepEqual(stray.success && stray.data, { type: 'board/stitch', requestId: 1 });
  for (const m of [
    { type: 'board/stitch' },
    { type: 'board/saveExport', requestId: 2, kind: '../../x.gif', bytes: new Uint8Array(4) },
    { type: 'board/saveExport', requestId: 2, kind: 'film', bytes: new Uint8Array(4) },
    { type: 'board/readTake', requestId: 3, id: '../open' },
  ])
    assert.equal(schema.safeParse(m).success, false, JSON.stringify(m));
});
