import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addShotInput,
  boardFromInput,
  boardPathProblem,
  createInput,
  parseInput,
} from '../../../../../src/video/storyboard/core/agentInput';
import { parseBoard, printBoard } from '../../../../../src/video/storyboard/core/board';

void test('a board made from the tool input is a valid board with chained shots and fresh ids', () => {
  const r = parseInput(createInput, {
    path: 'demo/login.storyboard.json',
    title: 'Login flow',
    model: 'vendor-image-video',
    shots: [
      { prompt: 'the login page', seconds: 4 },
      { prompt: 'typing the password', continueFromPrevious: true },
      { prompt: 'the dashboard appears', continueFromPrevious: true, takes: 2 },
    ],
  });
  assert.ok(r.ok);
  const board = boardFromInput(r.ok ? r.value : (undefined as never));
  assert.deepEqual(
    board.shots.map((s) => [s.id, s.continueFrom ?? '-', s.takes ?? 1]),
    [
      ['shot-1', '-', 1],
      ['shot-2', 'previous', 1],
      ['shot-3', 'previous', 2],
    ],
  );
  assert.deepEqual(parseBoard(printBoard(board)), { ok: true, board });
});

void test('tool paths: only workspace-relative *.storyboard.json paths that stay inside', () => {
  assert.equal(boardPathProblem('demo/a.storyboard.json'), undefined);
  assert.match(boardPathProblem('a.json') ?? '', /ends in \.storyboard\.json/);
  assert.match(boardPathProblem('/etc/x.storyboard.json') ?? '', /relative/);
  assert.match(boardPathProblem('C:\\x.storyboard.json') ?? '', /relative/);
  assert.match(boardPathProblem('../../x.storyboard.json') ?? '', /out of the workspace/);
  assert.match(boardPathProblem('a/../../x.storyboard.json') ?? '', /out of the workspace/);
  // What the chat's file tools refuse: .git/ and .vscode/ (any case), Windows aliases, NUL.
  assert.match(boardPathProblem('.git/hooks/x.storyboard.json') ?? '', /^\.git\/ holds settings and hooks/);
  assert.match(boardPathProblem('a/.VSCode/x.storyboard.json') ?? '', /^\.vscode\/ holds/);
  assert.match(boardPathProblem('a/../.git/x.storyboard.json') ?? '', /^\.git\//);
  assert.match(boardPathProblem('.git./x.storyboard.json') ?? '', /"\.git\." would name another file on Windows/);
  assert.match(boardPathProblem('GIT~1/x.storyboard.json') ?? '', /"GIT~1" would name another file/);
  assert.match(boardPathProblem('a.storyboard.json:x.storyboard.json') ?? '', /would name another file/);
  assert.match(boardPathProblem('a\0.storyboard.json') ?? '', /NUL/);
  assert.equal(boardPathProblem('docs/v1.2/demo.storyboard.json'), undefined);
});

void test('bad tool input names the field: no shots, a huge takes count, an empty prompt', () => {
  const none = parseInput(createInput, { path: 'a.storyboard.json', title: 't', shots: [] });
  assert.match(!none.ok ? none.error : '', /^shots: /);
  const takes = parseInput(addShotInput, { path: 'a.storyboard.json', shot: { prompt: 'p', takes: 1000 } });
  assert.match(!takes.ok ? takes.error : '', /^shot\.takes: /);
  const empty = parseInput(addShotInput, { path: 'a.storyboard.json', shot: { prompt: '' } });
  assert.match(!empty.ok ? empty.error : '', /^shot\.prompt: /);
});
