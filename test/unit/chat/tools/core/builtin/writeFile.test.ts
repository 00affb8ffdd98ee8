import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RecordedChange } from '../../../../../../src/chat/conversation/core/contracts';
import { writeFile } from '../../../../../../src/chat/tools/core/builtin/writeFile';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'a.txt': 'old\n' });
});
after(() => ws.dispose());

void test('write_file creates a file and replaces one, recording the prior content first', async () => {
  const recorded: RecordedChange[] = [];
  const tool = writeFile(kitFor(ws.root, {}, { recorder: { record: async (c) => void recorded.push(c) } }));
  assert.match(await run(tool, { path: 'new/b.txt', content: 'fresh\n' }), /Created new\/b\.txt/);
  assert.equal(await fs.readFile(path.join(ws.root, 'new/b.txt'), 'utf8'), 'fresh\n');
  assert.match(await run(tool, { path: 'a.txt', content: 'new\n' }), /Edited a\.txt/);
  assert.equal(await fs.readFile(path.join(ws.root, 'a.txt'), 'utf8'), 'new\n');
  assert.deepEqual(
    recorded.map((c) => [c.relative, c.existed, c.before, c.after, c.answerId]),
    [
      ['new/b.txt', false, '', 'fresh\n', 'a1'],
      ['a.txt', true, 'old\n', 'new\n', 'a1'],
    ],
  );
});

void test('write_file does not apply over a file that changed while it waited for approval', async () => {
  const tool = writeFile(kitFor(ws.root));
  const prepared = await prepare(tool, { path: 'a.txt', content: 'mine\n' });
  await fs.writeFile(path.join(ws.root, 'a.txt'), 'theirs\n');
  await assert.rejects(
    prepared.run({ signal: new AbortController().signal, conversationId: 'c1', callId: 'x' }),
    /changed while/,
  );
  assert.equal(await fs.readFile(path.join(ws.root, 'a.txt'), 'utf8'), 'theirs\n');
});

void test('write_file refuses a path outside the workspace', async () => {
  await assert.rejects(async () => prepare(writeFile(kitFor(ws.root)), { path: '../x.txt', content: 'x' }));
});
