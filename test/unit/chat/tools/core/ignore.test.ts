// find_files, search_text and list_directory leave out what .gitignore files and files.exclude
// hide, as the @-mention picker does; list_directory says how many entries it hid.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import { nodeToolHost } from '../../../../support/nodeToolHost';

let ws: string;

before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-ignore-')));
  const put = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  };
  await put('.gitignore', '# build output and local secrets\ndist/\n*.secret\n.env\n');
  await put('src/a.ts', 'const needle = 1;\n');
  await put('src/key.secret', 'needle secret\n');
  await put('.env', 'API_KEY=needle\n');
  await put('dist/out.ts', 'const needle = 2;\n');
  await put('pkg/.gitignore', 'generated.ts\n');
  await put('pkg/generated.ts', 'const needle = 3;\n');
  await put('pkg/keep.ts', 'const needle = 4;\n');
  await put('excluded/x.ts', 'const needle = 5;\n');
});
after(async () => fs.rm(ws, { recursive: true, force: true }));

async function run(name: string, args: unknown): Promise<string> {
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }], { excludes: ['**/excluded'] })),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: () => undefined,
  });
  const call: ToolCall = { id: 'x', type: 'function', function: { name, arguments: JSON.stringify(args) } };
  const [m] = await runner.execute([call], { signal: new AbortController().signal, conversationId: 'c' });
  return m?.content ?? '';
}

void test('find_files leaves out .gitignored files (root and nested .gitignore) and files.exclude', async () => {
  const out = await run('find_files', { pattern: '*.ts' });
  assert.match(out, /^2 file\(s\) match/, out);
  assert.match(out, /src\/a\.ts/);
  assert.match(out, /pkg\/keep\.ts/);
  for (const hidden of ['dist/out.ts', 'pkg/generated.ts', 'excluded/x.ts']) assert.ok(!out.includes(hidden), out);
});

void test('search_text does not search .gitignored or excluded files (a local .env stays out)', async () => {
  const out = await run('search_text', { query: 'needle' });
  assert.match(out, /^2 match/, out);
  for (const hidden of ['.env', 'key.secret', 'dist/', 'generated.ts', 'excluded/'])
    assert.ok(!out.includes(hidden), out);
});

void test('list_directory hides ignored entries and says how many it hid', async () => {
  const top = await run('list_directory', { path: '.' });
  assert.match(top, /3 entries hidden by \.gitignore or files\.exclude/, top);
  assert.match(top, /^src\/$/m);
  assert.match(top, /^pkg\/$/m);
  for (const hidden of ['dist/', 'excluded/', '.env']) assert.ok(!top.split('\n').includes(hidden), top);
  const pkg = await run('list_directory', { path: 'pkg' });
  assert.match(pkg, /1 entry hidden/, pkg);
  assert.ok(!pkg.includes('generated.ts'), pkg);
  const dist = await run('list_directory', { path: 'dist' });
  assert.match(dist, /Folder dist is empty \(1 entry hidden/, dist);
});
