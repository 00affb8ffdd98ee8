import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PathIndex, type FolderRow } from '../../../../../src/chat/mentions/core/pathIndex';
import { fuzzyFilter } from '../../../../../src/shared/fuzzy';
import type { MentionItem } from '../../../../../src/shared/protocol';

const ref = (label: string): string => `file:///ws/${label}`;
function foldersOf(label: string): FolderRow[] {
  const out: FolderRow[] = [];
  let rel = label;
  while (rel.includes('/')) {
    rel = rel.slice(0, rel.lastIndexOf('/'));
    out.push({ rel, ref: ref(rel) });
  }
  return out;
}
function indexOf(labels: string[]): PathIndex {
  const index = new PathIndex();
  for (const l of labels) index.add({ kind: 'file', label: l, ref: ref(l) }, foldersOf(l));
  return index;
}
const labels = (rows: MentionItem[]): string[] => rows.map((r) => r.label);

const PATHS = [
  'README.md',
  'docs/release-plan.md',
  'docs/releases/1.0.md',
  'src/chat/session/core/session.ts',
  'src/chat/session/core/turnRunner.ts',
  'src/chat/mentions/vscode/picker.ts',
  'src/shared/fuzzy.ts',
  'test/unit/shared/fuzzy.test.ts',
];

void test('a search ranks files and folders exactly as scoring every row afresh does', () => {
  const index = indexOf(PATHS);
  const extra: MentionItem[] = [{ kind: 'changes', label: 'changes', ref: '' }];
  const everything: MentionItem[] = [...extra];
  const seen = new Set<string>();
  for (const p of [...PATHS].sort())
    for (const f of foldersOf(p).reverse())
      if (!seen.has(f.rel)) {
        seen.add(f.rel);
        everything.push({ kind: 'folder', label: `${f.rel}/`, ref: f.ref });
      }
  for (const p of [...PATHS].sort()) everything.push({ kind: 'file', label: p, ref: ref(p) });
  for (const q of ['fuzzy', 'ses', 'src/chat', 'relplan', 'docs', 'zzz', 'c']) {
    const want = fuzzyFilter(q, everything, (i) => i.label, 50);
    assert.deepEqual(new Set(labels(index.search(q, extra, 50))), new Set(labels(want)), q);
    assert.equal(labels(index.search(q, extra, 50))[0], labels(want)[0], q);
  }
});

void test('typing on narrows the previous matches and gives the same rows as a fresh search', () => {
  const typed = 'srcchatsess';
  const index = indexOf(PATHS);
  for (let i = 1; i <= typed.length; i++) {
    const q = typed.slice(0, i);
    const fresh = indexOf(PATHS).search(q, [], 50);
    assert.deepEqual(labels(index.search(q, [], 50)), labels(fresh), q);
  }
  // Deleting a character (a query that is no longer an extension) searches everything again.
  assert.deepEqual(labels(index.search('src', [], 50)), labels(indexOf(PATHS).search('src', [], 50)));
});

void test('a file added or removed between two keystrokes shows in the next one, folders with it', () => {
  const index = indexOf(PATHS);
  assert.deepEqual(labels(index.search('brand', [], 50)), []);
  index.add({ kind: 'file', label: 'src/brand/new.ts', ref: ref('src/brand/new.ts') }, foldersOf('src/brand/new.ts'));
  assert.deepEqual(labels(index.search('brandn', [], 50)), ['src/brand/new.ts']);
  assert.deepEqual(labels(index.search('brand', [], 50)).sort(), ['src/brand/', 'src/brand/new.ts']);
  index.remove(ref('src/brand/new.ts'));
  assert.deepEqual(labels(index.search('brand', [], 50)), [], 'its folder went with its last file');
  assert.equal(index.size, PATHS.length);
});

void test('removing a folder removes every file under it, and only those', () => {
  const index = indexOf([...PATHS, 'docsearch.md']);
  index.remove(ref('docs'));
  assert.deepEqual(labels(index.search('docs', [], 50)), ['docsearch.md']);
  assert.equal(index.size, PATHS.length - 1);
});

void test('the empty query lists files in path order (locale order, as the file list was sorted)', () => {
  assert.deepEqual(labels(indexOf([...PATHS].reverse()).first(3)), [
    'docs/release-plan.md',
    'docs/releases/1.0.md',
    'README.md',
  ]);
});
