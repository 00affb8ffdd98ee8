// The @-picker over a 50,000-file workspace (issue 25 item 5): per keystroke, the index built once
// (src/chat/mentions/core/pathIndex.ts: labels prepared once, a query that extends the previous
// one scores only its matches) against what the picker did before, in the same run: make every
// file and folder row from the file list again and score all of them. The paths are synthetic
// (a seeded tree 6 levels deep); the query is typed one character at a time. Prints p50 and max
// per keystroke for both and the ratio, against the goal (<= 30 ms per keystroke). Bounded: a
// few seconds. Asserts nothing about time.
import { performance } from 'node:perf_hooks';
import { PathIndex, type FolderRow } from '../src/chat/mentions/core/pathIndex';
import { fuzzyFilter } from '../src/shared/fuzzy';
import type { MentionItem } from '../src/shared/protocol';
import { median, seededRandom } from './support/stats';

const FILES = 50_000;
const QUERIES = ['srcchatsessioncoreturn', 'readme', 'pkg12/mod3'];

function paths(): string[] {
  const random = seededRandom(7);
  const r = (n: number): number => Math.floor(random() * n);
  const words = ['src', 'chat', 'session', 'core', 'vscode', 'tools', 'video', 'api', 'test', 'unit', 'docs', 'lib'];
  const out = new Set<string>();
  while (out.size < FILES) {
    const depth = 1 + r(6);
    const parts = [`pkg${r(40)}`];
    for (let d = 1; d < depth; d++) parts.push(d === 2 ? `mod${r(9)}` : (words[r(words.length)] as string));
    parts.push(`${words[r(words.length)]}${r(500)}.${['ts', 'md', 'json', 'tsx'][r(4)]}`);
    out.add(parts.join('/'));
  }
  return [...out].sort();
}

function folders(label: string): FolderRow[] {
  const out: FolderRow[] = [];
  let rel = label;
  while (rel.includes('/')) {
    rel = rel.slice(0, rel.lastIndexOf('/'));
    out.push({ rel, ref: `file:///ws/${rel}` });
  }
  return out;
}

/** Before: every row made again from the list, then all of them scored. */
function oldQuery(list: string[], q: string): MentionItem[] {
  const dirs = new Map<string, string>();
  for (const p of list) for (const f of folders(p)) if (!dirs.has(f.rel)) dirs.set(f.rel, f.ref);
  const files: MentionItem[] = list.map((p) => ({ kind: 'file', label: p, ref: `file:///ws/${p}` }));
  const folderRows: MentionItem[] = [...dirs].map(([rel, ref]) => ({ kind: 'folder', label: `${rel}/`, ref }));
  return fuzzyFilter(q, [...folderRows, ...files], (i) => i.label, 50);
}

/** Before, the empty query: the rows made again from the (already sorted) list, the first 50 kept. */
function oldFirst(list: string[]): MentionItem[] {
  return list.map((p): MentionItem => ({ kind: 'file', label: p, ref: `file:///ws/${p}` })).slice(0, 50);
}

function main(): void {
  const list = paths();
  let t0 = performance.now();
  const index = new PathIndex();
  for (const p of list) index.add({ kind: 'file', label: p, ref: `file:///ws/${p}` }, folders(p));
  console.log(`${FILES} files; the index built once in ${(performance.now() - t0).toFixed(0)} ms`);
  const oldTimes: number[] = [];
  const newTimes: number[] = [];
  for (const query of QUERIES) {
    // The picker opens on the empty query (the first rows in path order), then each character.
    for (let i = 0; i <= query.length; i++) {
      const q = query.slice(0, i);
      t0 = performance.now();
      const want = i === 0 ? oldFirst(list) : oldQuery(list, q);
      oldTimes.push(performance.now() - t0);
      t0 = performance.now();
      const got = i === 0 ? index.first(50) : index.search(q, [], 50);
      newTimes.push(performance.now() - t0);
      if (got[0]?.label !== want[0]?.label)
        throw new Error(`"${q}": the index ranks ${got[0]?.label} first, a full scoring ${want[0]?.label}`);
    }
  }
  const line = (name: string, xs: number[]): string =>
    `${name} p50 ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(
    `per keystroke over ${newTimes.length} keystrokes: ${line('index', newTimes)}; ${line('rebuilt each time', oldTimes)}`,
  );
  console.log(
    `old/new p50 ${(median(oldTimes) / median(newTimes)).toFixed(1)}x; goal <= 30 ms per keystroke: ${Math.max(...newTimes) <= 30 ? 'met' : 'missed'} (max)`,
  );
}

main();
