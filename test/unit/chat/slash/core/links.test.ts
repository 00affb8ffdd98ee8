// A prompt file's relative links: found in its Markdown, resolved against its folder, attached only
// when they really lie in the workspace (a hostile repository's links out are refused, unread).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { checkLinks, LINK_LIMIT, markdownLinks } from '../../../../../src/chat/slash/core/links';

let ws: string;
let outside: string;
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-links-')));
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-links-out-')));
  await fs.mkdir(path.join(ws, '.github/prompts'), { recursive: true });
  await fs.mkdir(path.join(ws, 'docs'), { recursive: true });
  await fs.writeFile(path.join(ws, 'docs/Form.md'), 'form');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'docs/link.md'));
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

void test('file links only: not web addresses, anchors, images or links inside code', () => {
  const body = [
    '[form](../../docs/Form.md) and [again](../../docs/Form.md#top "title")',
    '[web](https://example.com) [mail](mailto:a@b) [here](#section) ![img](pic.png)',
    '`[code](not/this.md)` [space](<../../docs/My%20File.md>)',
    '```\n[fenced](no.md)\n```',
  ].join('\n');
  assert.deepEqual(markdownLinks(body), ['../../docs/Form.md', '../../docs/My File.md']);
});

void test('a link inside the workspace is attached; links out, through a symlink out, or missing are refused', async () => {
  const file = path.join(ws, '.github/prompts/p.prompt.md');
  const links = [
    '../../docs/Form.md',
    '../../../' + path.basename(outside) + '/secret.txt',
    outside + '/secret.txt',
    '../../docs/link.md',
    '../../docs/none.md',
  ];
  const r = await checkLinks(links, file, [ws]);
  assert.equal(r[0]!.absolute, path.join(ws, 'docs/Form.md'));
  assert.equal(r[1]!.refused, 'outside');
  assert.equal(r[2]!.refused, 'outside');
  assert.equal(r[3]!.refused, 'outside', 'a symbolic link out is refused');
  assert.equal(r[4]!.refused, 'missing');
  assert.ok(r.slice(1).every((c) => c.absolute === undefined));
});

void test(`at most ${LINK_LIMIT} links are attached`, async () => {
  const many = Array.from({ length: LINK_LIMIT + 2 }, (_, i) => `../../docs/f${i}.md`);
  const r = await checkLinks(many, path.join(ws, '.github/prompts/p.prompt.md'), [ws]);
  assert.equal(r.length, LINK_LIMIT + 2);
  assert.equal(r.at(-1)!.refused, 'limit');
});
