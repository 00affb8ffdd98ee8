import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { fromClaudeInput, hookToolName, matchNames, toClaudeInput } from '../../../../../src/chat/hooks/core/toolNames';

const root = path.resolve('/ws');

void test('our tools under Claude Code names for matchers and stdin', () => {
  assert.deepEqual(matchNames('run_command'), ['run_command', 'Bash']);
  assert.deepEqual(matchNames('get_diagnostics'), ['get_diagnostics']);
  assert.equal(hookToolName('edit_file', 'claude'), 'Edit');
  assert.equal(hookToolName('edit_file', 'vscode'), 'edit_file');
});

void test("arguments become Claude Code's tool_input (absolute file_path) and back", () => {
  const edit = toClaudeInput('edit_file', { path: 'src/a.ts', oldText: 'a', newText: 'b', replaceAll: true }, root);
  assert.deepEqual(edit, {
    file_path: path.join(root, 'src/a.ts'),
    old_string: 'a',
    new_string: 'b',
    replace_all: true,
  });
  assert.deepEqual(fromClaudeInput('edit_file', edit), {
    path: path.join(root, 'src/a.ts'),
    oldText: 'a',
    newText: 'b',
    replaceAll: true,
  });
  assert.deepEqual(toClaudeInput('run_command', { command: 'npm test' }, root), { command: 'npm test' });
  const read = toClaudeInput('read_file', { path: 'x', startLine: 5, endLine: 9 }, root);
  assert.deepEqual(read, { file_path: path.join(root, 'x'), offset: 5, limit: 5 });
  assert.deepEqual(fromClaudeInput('read_file', read), { path: path.join(root, 'x'), startLine: 5, endLine: 9 });
  assert.deepEqual(toClaudeInput('search_text', { query: 'q', include: '*.ts' }, root), { pattern: 'q', glob: '*.ts' });
});
