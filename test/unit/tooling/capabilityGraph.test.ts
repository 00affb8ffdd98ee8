// scripts/capabilityGraph.mjs over small trees in a temp folder: a cycle between capability folders
// or between features is refused with the imports that make it, a tree is not, and the copy in
// docs/ARCHITECTURE.md must match; the real tree passes.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { graphProblems, graphText, edgesOf, nodeOf } from '../../../scripts/capabilityGraph.mjs';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'gws-graph-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

const base = {
  'src/shared/money.ts': 'export const x = 1;\n',
  'src/api/transport/http.ts': "import { x } from '../../shared/money';\n",
  'src/chat/session/core/session.ts': "import { y } from '../../history/core/store';\n",
  'src/chat/history/core/store.ts': "import type { H } from '../../../api/transport/http';\nexport const y = 1;\n",
  'src/chat/vscode/register.ts': "import { s } from '../session/core/session';\n",
};

void test('each file stands for its folder: a base layer, an api resource, a capability, a composition point, a page', () => {
  assert.equal(nodeOf('src/shared/protocol/chat.ts'), 'shared');
  assert.equal(nodeOf('src/api/transport/http.ts'), 'api/transport');
  assert.equal(nodeOf('src/api/client.ts'), 'api');
  assert.equal(nodeOf('src/chat/tools/core/builtin/readFile.ts'), 'chat/tools');
  assert.equal(nodeOf('src/video/vscode/register.ts'), 'video/vscode');
  assert.equal(nodeOf('src/extension.ts'), 'extension');
  assert.equal(nodeOf('webview/gallery/app.tsx'), 'webview/gallery');
});

void test('a tree of folders has no problem once its graph is written into the doc', () => {
  const root = tree(base);
  const text = graphText(edgesOf(root));
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs/ARCHITECTURE.md'), `# A\n\n${text}\n`);
  assert.deepEqual(graphProblems(root), []);
});

void test('a stale copy of the graph in the doc is refused', () => {
  const root = tree({ ...base, 'docs/ARCHITECTURE.md': '# A\n' });
  assert.match(graphProblems(root).join('\n'), /ARCHITECTURE\.md: the capability graph is stale/);
});

void test('a cycle between two capabilities is refused with the import that makes each step', () => {
  const root = tree({ ...base, 'src/chat/history/core/ids.ts': "import '../../session/core/session';\n" });
  const p = graphProblems(root, { checkDoc: false });
  assert.equal(p.length, 1, p.join('\n'));
  assert.match(p[0]!, /cycle between capabilities: chat\/history -> chat\/session -> chat\/history/);
  assert.match(p[0]!, /src\/chat\/history\/core\/ids\.ts -> src\/chat\/session\/core\/session\.ts/);
  assert.match(p[0]!, /src\/chat\/session\/core\/session\.ts -> src\/chat\/history\/core\/store\.ts/);
});

void test('a capability importing its composition point is a cycle too; so is a dynamic import', () => {
  const root = tree({
    ...base,
    'src/chat/session/core/late.ts': "export const f = () => import('../../vscode/register');\n",
  });
  assert.match(graphProblems(root, { checkDoc: false }).join('\n'), /chat\/session -> chat\/vscode -> chat\/session/);
});

void test('two features that import each other are a cycle between features', () => {
  const root = tree({
    ...base,
    'src/video/jobs/core/job.ts': "import { y } from '../../../chat/history/core/store';\n",
    'src/chat/history/core/clip.ts': "import { j } from '../../../video/jobs/core/job';\n",
  });
  assert.match(graphProblems(root, { checkDoc: false }).join('\n'), /cycle between features: chat -> video -> chat/);
});

void test('the real tree has no cycle and its doc is current', () => {
  assert.deepEqual(graphProblems(process.cwd()), []);
});
