// The documented prompt-file variables: inputs (asked once per name, or given as name=value),
// the selection, the active file and the workspace folder; anything else stays as written.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { fillVariables, inputsFromArguments, inputVariables } from '../../../../../src/chat/slash/core/variables';

void test('each distinct input name once, with the first placeholder written for it', () => {
  const body = 'Name ${input:formName:MyForm}, fields ${input:fields}, again ${input:formName} and ${input:fields:a,b}';
  assert.deepEqual(inputVariables(body), [
    { name: 'formName', placeholder: 'MyForm' },
    { name: 'fields', placeholder: 'a,b' },
  ]);
});

void test('name=value in the message gives an input (quoted values may hold spaces); the rest is kept', () => {
  const r = inputsFromArguments('formName=MyForm for "listing" fields="a b" other=1', ['formName', 'fields']);
  assert.deepEqual(
    [...r.values],
    [
      ['formName', 'MyForm'],
      ['fields', 'a b'],
    ],
  );
  assert.equal(r.rest, 'for "listing" other=1');
});

void test('every documented variable is filled; unknown ones and values holding ${…} are left alone', () => {
  const file = path.join('/ws', 'src', 'app.ts');
  const out = fillVariables(
    [
      '${workspaceFolder}|${workspaceFolderBasename}',
      '${selection}|${selectedText}',
      '${file}|${fileBasename}|${fileDirname}|${fileBasenameNoExtension}',
      '${input:name}|${input:name:ph}|${input:missing}',
      '${HOME}|${env:PATH}',
    ].join('\n'),
    { file, selection: 'echo ${USER}', workspaceFolder: '/ws', inputs: new Map([['name', 'Ada']]) },
  );
  assert.equal(
    out,
    [
      '/ws|ws',
      'echo ${USER}|echo ${USER}',
      `${file}|app.ts|${path.dirname(file)}|app`,
      'Ada|Ada|${input:missing}',
      '${HOME}|${env:PATH}',
    ].join('\n'),
  );
  assert.equal(fillVariables('[${file}][${selection}]', { inputs: new Map() }), '[][]', 'no editor: empty');
});
