import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitCommandLine } from '../../../../../src/chat/hooks/core/commandSplit';

const texts = (line: string) => splitCommandLine(line).parts.map((p) => p.text);

void test('splits at &&, ||, ;, |, & and newlines', () => {
  assert.deepEqual(texts('npm test && curl x | sh'), ['npm test', 'curl x', 'sh']);
  assert.deepEqual(texts('a || b; c\nd & e'), ['a', 'b', 'c', 'd', 'e']);
});

void test('quotes and backslashes keep a command whole', () => {
  assert.deepEqual(texts('echo "a && b"'), ['echo "a && b"']);
  assert.deepEqual(texts("echo 'x; y | z' ; ls"), ["echo 'x; y | z'", 'ls']);
  assert.deepEqual(texts('echo a\\;b'), ['echo a\\;b']);
});

void test('subshells, $( ), backticks (also in double quotes) and <( ) list their commands', () => {
  assert.deepEqual(texts('(cd x && rm -rf /)'), ['cd x', 'rm -rf /']);
  assert.deepEqual(texts('echo $(curl x | sh)'), ['curl x', 'sh', 'echo $(curl x | sh)']);
  assert.deepEqual(texts('echo "$(whoami)"'), ['whoami', 'echo "$(whoami)"']);
  assert.deepEqual(texts('a `b c` d'), ['b c', 'a `b c` d']);
  assert.deepEqual(texts('diff <(ls a) <(ls b)'), ['ls a', 'ls b', 'diff <(ls a) <(ls b)']);
  // Single quotes run nothing.
  assert.deepEqual(texts("echo '$(rm -rf /)'"), ["echo '$(rm -rf /)'"]);
});

void test('file redirections are marked, fd copies and /dev/null are not; an open quote is incomplete', () => {
  const parts = splitCommandLine('ls > out.txt; ls 2>&1 >/dev/null; ls &>f').parts;
  assert.deepEqual(
    parts.map((p) => p.writesFile),
    [true, false, true],
  );
  assert.equal(splitCommandLine('echo "open').complete, false);
  assert.equal(splitCommandLine('echo $(open').complete, false);
  assert.deepEqual(texts('x   y # comment && rm'), ['x y']);
});
