// scripts/imageFamilies.mjs: the READMEs' families table is the catalog's, in both languages, and
// a catalog that changes makes the check fail until the table is written again.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import {
  CATALOG,
  END,
  READMES,
  START,
  familiesTable,
  tableProblems,
  withTable,
} from '../../../scripts/imageFamilies.mjs';

const REPO = resolve(import.meta.dirname, '../../..');
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A copy of the READMEs and the catalog in a temp folder. */
function copy(): string {
  const root = mkdtempSync(join(tmpdir(), 'gws-families-'));
  roots.push(root);
  mkdirSync(join(root, 'src/api/catalog'), { recursive: true });
  cpSync(join(REPO, CATALOG), join(root, CATALOG));
  for (const f of Object.keys(READMES)) cpSync(join(REPO, f), join(root, f));
  return root;
}

void test('both READMEs carry the table the catalog makes', () => {
  assert.deepEqual(tableProblems(REPO), []);
});

void test('every family of the catalog has its row, with its name and first model pattern', () => {
  const catalog = JSON.parse(readFileSync(join(REPO, CATALOG), 'utf8')) as {
    families: { name: string; models: string[] }[];
  };
  for (const lang of ['en', 'zh'] as const) {
    const rows = familiesTable(catalog, lang).split('\n').slice(2);
    assert.equal(rows.length, catalog.families.length, lang);
    catalog.families.forEach((f, i) => {
      assert.ok(rows[i]!.startsWith(`| ${f.name} |`), rows[i]);
      assert.ok(rows[i]!.includes(`\`${f.models[0]!.replace(/\|/g, '\\|')}\``), rows[i]);
    });
  }
});

void test('what a family accepts shows in its row: durations as a range, links only, edits with a mask', () => {
  const table = familiesTable(
    {
      families: [
        {
          name: 'A',
          kind: 'video',
          models: ['^a-'],
          durations: [2, 3, 4, 5],
          resolutions: ['720p'],
          firstFrame: { accepts: 'url' },
          audio: {},
        },
        {
          name: 'B',
          kind: 'image',
          models: ['b'],
          sizes: ['1024x1024'],
          n: { max: 4 },
          edits: { maxImages: 2, mask: true },
        },
      ],
    },
    'en',
  );
  assert.match(table, /\| A \| video \| `\^a-` \| 2-5 \| 720p \| first frame; HTTPS links only \| yes \|/);
  assert.match(
    table,
    /\| B \| image \| `b` \| - \| 1024x1024; up to 4 per request \| edits: up to 2 images, mask \| - \|/,
  );
});

void test('a catalog that changed fails the check, naming the README, until --write puts the table back', () => {
  const root = copy();
  const catalog = JSON.parse(readFileSync(join(root, CATALOG), 'utf8')) as { families: { durations?: number[] }[] };
  catalog.families[0]!.durations = [7];
  writeFileSync(join(root, CATALOG), JSON.stringify(catalog));
  const problems = tableProblems(root);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0]!, /^README\.md: the families table differs/);
  assert.deepEqual(tableProblems(root, { write: true }), []);
  assert.deepEqual(tableProblems(root), []);
  assert.match(readFileSync(join(root, 'README.md'), 'utf8'), /\| Kling \| video \| `\^kling-` \| 7 \|/);
});

void test('a README without the markers is named', () => {
  const root = copy();
  writeFileSync(join(root, 'README.zh-CN.md'), '# no table\n');
  assert.match(tableProblems(root).join('\n'), /README\.zh-CN\.md: no ".*" markers/);
  assert.equal(withTable(`${START}\nold\n${END}`, 'new'), `${START}\n\nnew\n\n${END}`);
});
