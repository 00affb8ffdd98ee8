// `/name rest` run: a prompt file's inputs asked once per name (or given), its links checked, its
// model, agent and tools carried (tools narrowed); a cancelled input stops the run; a skill's message.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
  expandPromptFile,
  matchModel,
  parseCommand,
  skillMessage,
  type ExpandContext,
} from '../../../../../src/chat/slash/core/expand';
import { parsePromptFile } from '../../../../../src/chat/slash/core/promptFile';

let ws: string;
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-expand-')));
  await fs.mkdir(path.join(ws, 'docs'), { recursive: true });
  await fs.writeFile(path.join(ws, 'docs/Form.md'), 'form');
});
after(() => fs.rm(ws, { recursive: true, force: true }));

const FILE = `---
agent: plan
model: GPT-4o
tools: ['read', 'runCommands']
---
Make \${input:formName:MyForm} with \${input:fields} in \${fileBasename}; \${input:formName} again.
See [form](../../docs/Form.md) and [out](../../../../etc/passwd).
`;

function ctx(asked: string[], answers: Record<string, string | undefined>): ExpandContext {
  return {
    file: path.join(ws, '.github/prompts/form.prompt.md'),
    roots: [ws],
    editorFile: path.join(ws, 'src/app.ts'),
    selection: '',
    workspaceFolder: ws,
    ask: (v) => {
      asked.push(`${v.name}:${v.placeholder ?? ''}`);
      return Promise.resolve(answers[v.name]);
    },
    enabledTools: ['read_file', 'search_text'],
    knownTools: ['read_file', 'search_text', 'run_command'],
  };
}

void test('inputs are asked once per distinct name unless given; links, model, agent and narrowed tools come along', async () => {
  const asked: string[] = [];
  const r = await expandPromptFile(
    parsePromptFile(FILE, 'form.prompt.md'),
    'formName=Login please',
    ctx(asked, { fields: 'user, pass' }),
  );
  assert.deepEqual(asked, ['fields:'], 'formName came from the message, fields asked once');
  assert.ok(r);
  assert.match(r.text, /^Make Login with user, pass in app\.ts; Login again\./);
  assert.ok(r.text.endsWith('\n\nplease'), r.text);
  assert.equal(r.model, 'GPT-4o');
  assert.equal(r.agent, 'plan');
  assert.deepEqual(r.tools, ['read_file'], 'run_command is known but not enabled: not given');
  assert.deepEqual(
    r.links.map((l) => [l.link, l.absolute !== undefined]),
    [
      ['../../docs/Form.md', true],
      ['../../../../etc/passwd', false],
    ],
  );
});

void test('closing an input box stops the run; a value that looks like a link is not attached', async () => {
  assert.equal(await expandPromptFile(parsePromptFile(FILE, 'f.prompt.md'), '', ctx([], { formName: 'x' })), undefined);
  const r = await expandPromptFile(
    parsePromptFile('Do ${input:a}', 'f.prompt.md'),
    '',
    ctx([], { a: '[x](../../docs/Form.md)' }),
  );
  assert.deepEqual(r?.links, []);
  assert.equal(r?.tools, undefined, "no tools field: the user's tools as they are");
});

void test('commands, skills and model names', () => {
  assert.deepEqual(parseCommand('/explain  this file'), { name: 'explain', rest: 'this file' });
  assert.deepEqual(parseCommand('/webapp-testing'), { name: 'webapp-testing', rest: '' });
  assert.equal(parseCommand('what is /explain'), undefined);
  assert.equal(parseCommand('/ space'), undefined);
  assert.match(
    skillMessage('pdf', 'Step 1.', 'the report'),
    /^Use the skill "pdf" for this request\. Its instructions:\n\nStep 1\.\n\nthe report$/,
  );
  const ids = ['gpt-4o', 'claude-sonnet-4', 'vendor/gpt-4o-mini'];
  assert.equal(matchModel('gpt-4o', ids), 'gpt-4o');
  assert.equal(matchModel('GPT-4o', ids), 'gpt-4o');
  assert.equal(matchModel('Claude Sonnet 4 (copilot)', ids), 'claude-sonnet-4');
  assert.equal(matchModel('GPT-4o mini', ids), 'vendor/gpt-4o-mini');
  assert.equal(matchModel('opus', ids), undefined);
});
