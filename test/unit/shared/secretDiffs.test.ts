import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leftOutNote, withoutSecretDiffs } from '../../../src/shared/secretDiffs';

const part = (header: string, body: string) => `${header}\n${body}`;
const envDiff = part(
  'diff --git a/.env b/.env',
  'index 1..2 100644\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@ API_KEY=sk-old\n-API_KEY=sk-old\n+API_KEY=sk-new',
);
const srcDiff = part('diff --git a/src/a.ts b/src/a.ts', '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b');

void test('withoutSecretDiffs: a secret file part goes whole and is named; the other parts stay as they were', () => {
  const r = withoutSecretDiffs(`${srcDiff}\n${envDiff}\n${srcDiff.replace(/a\.ts/g, 'b.ts')}`);
  assert.deepEqual(r.leftOut, ['.env']);
  assert.doesNotMatch(r.text, /sk-old|sk-new|API_KEY/);
  assert.equal(r.text, `${srcDiff}\n${srcDiff.replace(/a\.ts/g, 'b.ts')}`);
  assert.equal(leftOutNote(r.leftOut), 'diff of .env left out: secret file');
});

void test('withoutSecretDiffs: renames, quoted names, spaces and a case change do not hide a secret', () => {
  const cases = [
    part(
      'diff --git a/old.txt b/.env',
      'similarity index 90%\nrename from old.txt\nrename to .env\n@@ -1 +1 @@\n-T=1\n+T=2',
    ),
    part('diff --git a/.env b/notes.txt', 'rename from .env\nrename to notes.txt\n@@ -1 +1 @@\n-T=1\n+T=2'),
    part(
      'diff --git "a/my dir/.env" "b/my dir/.env"',
      '--- "a/my dir/.env"\n+++ "b/my dir/.env"\n@@ -1 +1 @@\n-T=1\n+T=2',
    ),
    part('diff --git a/my dir/prod.env b/my dir/prod.env', '@@ -1 +1 @@\n-T=1\n+T=2'),
    part('diff --git a/CONFIG/.ENV.Local b/CONFIG/.ENV.Local', 'new file mode 100644\n@@ -0,0 +1 @@\n+T=2'),
    part('diff --git a/infra/terraform.tfstate b/infra/terraform.tfstate', '@@ -1 +1 @@\n-T=1\n+T=2'),
  ];
  for (const c of cases) {
    const r = withoutSecretDiffs(c);
    assert.equal(r.leftOut.length, 1, c);
    assert.doesNotMatch(r.text, /T=/, c);
  }
});

void test('withoutSecretDiffs: a diff without secret files comes back unchanged, text before the first part too', () => {
  const d = `# Staged changes\n${srcDiff}\n`;
  assert.deepEqual(withoutSecretDiffs(d), { text: d, leftOut: [] });
  assert.equal(leftOutNote([]), '');
});
