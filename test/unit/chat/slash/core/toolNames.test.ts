// A prompt file's `tools` can only narrow the user's tools: a hostile repository's prompt file
// naming a tool the user turned off does not get it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { narrowTools, toolsNamed } from '../../../../../src/chat/slash/core/toolNames';

const ALL = [
  'read_file',
  'list_directory',
  'find_files',
  'search_text',
  'get_selection',
  'get_diagnostics',
  'write_file',
  'edit_file',
  'run_command',
  'myserver_query',
];

void test('outside names map to ours: VS Code tools and tool sets, Claude Code tools, MCP server/*', () => {
  assert.deepEqual(toolsNamed('search/codebase', ALL), ['search_text', 'find_files']);
  assert.deepEqual(toolsNamed('edit', ALL), ['write_file', 'edit_file']);
  assert.deepEqual(toolsNamed('Bash(git *)', ALL), ['run_command']);
  assert.deepEqual(toolsNamed('Read', ALL), ['read_file', 'get_diagnostics', 'get_selection']);
  assert.deepEqual(toolsNamed('#tool:read_file', ALL), ['read_file']);
  assert.deepEqual(toolsNamed('myserver/*', ALL), ['myserver_query']);
  assert.deepEqual(toolsNamed('githubRepo', ALL), []);
});

void test('a prompt file cannot add a tool the user turned off, only narrow the enabled ones', () => {
  const enabled = ['read_file', 'search_text', 'find_files'];
  const r = narrowTools(['run_command', 'editFiles', 'read_file', 'githubRepo'], enabled, ALL);
  assert.deepEqual(r.tools, ['read_file']);
  assert.deepEqual(r.unknown, ['githubRepo'], 'turned-off tools are not unknown, just not given');
  assert.deepEqual(narrowTools(['search'], enabled, ALL).tools, ['search_text', 'find_files']);
  assert.deepEqual(narrowTools([], enabled, ALL).tools, [], 'an empty list offers nothing');
  for (const req of [['*'], ['run_command'], ALL]) {
    const got = narrowTools(req, enabled, ALL).tools;
    assert.ok(
      got.every((t) => enabled.includes(t)),
      `${req.join(',')} -> ${got.join(',')}`,
    );
  }
});
