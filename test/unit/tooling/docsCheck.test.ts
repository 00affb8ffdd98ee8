// scripts/docsCheck.mjs: the shipped Markdown's relative links resolve (files and headings), and the
// READMEs stay a user's page (length, no test file names, no commit hashes).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { anchors, docsProblems, linkTargets, README_MAX_LINES, slug } from '../../../scripts/docsCheck.mjs';

const REPO = resolve(import.meta.dirname, '../../..');
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'gws-docs-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

void test('the repository passes: every link of the READMEs, the changelog and docs/ resolves', () => {
  assert.deepEqual(docsProblems(REPO), []);
});

void test('slugs follow GitHub: punctuation dropped, CJK kept, repeats numbered', () => {
  assert.equal(slug('Your key and what leaves your machine'), 'your-key-and-what-leaves-your-machine');
  assert.equal(slug('For agents: `#generateVideo` and `#videoStatus`'), 'for-agents-generatevideo-and-videostatus');
  assert.equal(slug('配置你的中转站'), '配置你的中转站');
  assert.deepEqual([...anchors('# A\n## A\n```\n# not a heading\n```\n')], ['a', 'a-1']);
  assert.ok(anchors('## The web: `fetch_url` and web search').has('the-web-fetch_url-and-web-search'));
});

void test('links inside code are not links', () => {
  assert.deepEqual(linkTargets('[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n![p](m.png "title")'), ['x.md', 'm.png']);
});

void test('a missing file, a missing heading, a link out of the repository and a repository URL are each named', () => {
  const root = tree({
    'README.md':
      '# R\n[a](docs/A.md#there) [b](docs/gone.md) [c](../x.md) [d](https://github.com/o/gateway-studio/blob/main/x.md)\n',
    'README.zh-CN.md': '# R\n',
    'docs/A.md': '# A\n## Here\n[back](../README.md#r)\n',
  });
  const problems = docsProblems(root).join('\n');
  assert.match(problems, /README\.md: docs\/A\.md#there: no heading "#there" in docs\/A\.md/);
  assert.match(problems, /README\.md: docs\/gone\.md does not exist/);
  assert.match(problems, /README\.md: \.\.\/x\.md leads out of the repository/);
  assert.match(problems, /points into the repository by URL/);
  assert.doesNotMatch(problems, /docs\/A\.md:/);
});

void test('a README that names a test file, a commit hash or runs too long is refused; docs/ may', () => {
  const long = Array.from({ length: README_MAX_LINES + 1 }, (_, i) => `line ${i}`).join('\n');
  const root = tree({
    'README.md': '# R\nSee test/e2e/chat.e2e.ts and commit 5fd9016.\nColours #243b7a stay.\n',
    'README.zh-CN.md': `${long}\n`,
    'docs/TESTING.md': '# T\ntest/e2e/chat.e2e.ts at 5fd9016\n',
  });
  const problems = docsProblems(root);
  assert.ok(
    problems.some((p) => /^README\.md:2: names a test file \(test\/e2e\//.test(p)),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => /^README\.md:2: looks like a commit hash \(5fd9016\)/.test(p)),
    problems.join('\n'),
  );
  assert.ok(!problems.some((p) => /243b7a/.test(p)), 'a colour is not a hash');
  assert.ok(problems.some((p) => p === `README.zh-CN.md: ${README_MAX_LINES + 1} lines, over ${README_MAX_LINES}`));
  assert.ok(!problems.some((p) => p.startsWith('docs/')), problems.join('\n'));
});
