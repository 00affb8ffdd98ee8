// Diffs as `git diff` writes them, for the commit-message tests.

/** One file's diff: a modified file with `n` added lines and one removed, in one hunk under `ctx`. */
export function fileDiff(path: string, n: number, ctx = 'function main()'): string {
  const added = Array.from({ length: n }, (_, i) => `+const line${i} = ${i};`).join('\n');
  return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,${n + 2} @@ ${ctx}\n context\n-old\n${added}`;
}
