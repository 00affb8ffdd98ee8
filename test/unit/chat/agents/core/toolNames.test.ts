import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapToolNames, unmappedText } from '../../../../../src/chat/agents/core/toolNames';

void test('VS Code tool sets and tools map onto ours', () => {
  assert.deepEqual(mapToolNames(['read']).names, ['read_file', 'get_diagnostics', 'get_selection']);
  assert.deepEqual(mapToolNames(['search']).names, ['find_files', 'search_text', 'list_directory']);
  assert.deepEqual(mapToolNames(['edit']).names, ['edit_file', 'write_file']);
  assert.deepEqual(mapToolNames(['runCommands']).names, ['run_command']);
  assert.deepEqual(mapToolNames(['execute']).names, ['run_command']);
  assert.deepEqual(mapToolNames(['read/readFile', 'search/fileSearch', 'search/textSearch']).names, [
    'read_file',
    'find_files',
    'search_text',
  ]);
  assert.deepEqual(mapToolNames(['#tool:read/problems']).names, ['get_diagnostics'], 'as written in a body reference');
});

void test("Claude Code's names map onto ours, each once", () => {
  const m = mapToolNames(['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write', 'Read']);
  assert.deepEqual(m.names, ['read_file', 'edit_file', 'run_command', 'search_text', 'find_files', 'write_file']);
  assert.deepEqual(m.unmapped, []);
});

void test("our own names and other offered tools' names are accepted as they are", () => {
  assert.deepEqual(mapToolNames(['read_file', 'generate_video'], new Set(['generate_video'])).names, [
    'read_file',
    'generate_video',
  ]);
});

void test('a name with no tool here is reported, never fatal: documented ones apart from unknown ones', () => {
  const m = mapToolNames(['web/fetch', 'WebFetch', 'myServer/*', 'frobnicate', 'read']);
  assert.deepEqual(m.names, ['read_file', 'get_diagnostics', 'get_selection']);
  assert.deepEqual(m.unmapped, [
    { name: 'web/fetch', why: 'notHere' },
    { name: 'WebFetch', why: 'notHere' },
    { name: 'myServer/*', why: 'unknown' },
    { name: 'frobnicate', why: 'unknown' },
  ]);
  assert.equal(
    unmappedText({ name: 'frobnicate', why: 'unknown' }),
    'Unknown tool "frobnicate"; the agent runs without it.',
  );
});

void test('a Claude Bash pattern maps to run_command with a note that the pattern is not enforced', () => {
  const m = mapToolNames(['Bash(npm test:*)']);
  assert.deepEqual(m.names, ['run_command']);
  assert.equal(m.notes.length, 1);
  assert.match(m.notes[0] ?? '', /Bash\(npm test:\*\): the pattern in brackets is not enforced/);
});

void test('names that only look like ours are not taken (no prototype keys, no partial matches)', () => {
  assert.deepEqual(mapToolNames(['constructor', '__proto__', 'toString', 'read_fil']).names, []);
});
