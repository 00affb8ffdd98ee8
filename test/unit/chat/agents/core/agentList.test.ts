import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinAgents, type AgentSourceFile } from '../../../../../src/chat/agents/core/agent';
import { parseAgentFile } from '../../../../../src/chat/agents/core/agentFile';
import {
  AGENT_FOLDERS,
  assembleAgents,
  isAgentFileName,
  type FoundAgentFile,
} from '../../../../../src/chat/agents/core/agentList';

const ws = (p: string): AgentSourceFile => ({ path: `/ws/${p}`, scope: 'workspace', format: 'vscode' });
const user = (p: string): AgentSourceFile => ({ path: `/home/u/${p}`, scope: 'user', format: 'claude' });
const file = (source: AgentSourceFile, text: string): FoundAgentFile => ({
  source,
  parsed: parseAgentFile(text, source, source.path.split('/').pop()!),
});

void test('the documented folders: VS Code and Claude, workspace and user', () => {
  assert.deepEqual(
    AGENT_FOLDERS.map((f) => `${f.scope}:${f.dir}:${f.format}`),
    [
      'workspace:.github/agents:vscode',
      'workspace:.claude/agents:claude',
      'user:.copilot/agents:vscode',
      'user:.claude/agents:claude',
    ],
  );
  assert.ok(isAgentFileName('plan.agent.md'));
  assert.ok(isAgentFileName('reviewer.md'));
  assert.ok(!isAgentFileName('notes.txt'));
  assert.ok(!isAgentFileName('.hidden.md'));
});

void test('files become agents after the built-ins; each is a source that says whether it applies', () => {
  const l = assembleAgents(
    builtinAgents(),
    [
      file(ws('.github/agents/reviewer.agent.md'), '---\ndescription: reviews\n---\nReview.'),
      file(user('.claude/agents/helper.md'), '---\nname: helper\n---\nHelp.'),
    ],
    { trusted: true, active: 'reviewer' },
  );
  assert.deepEqual(
    l.agents.map((a) => a.id),
    ['agent', 'ask', 'plan', 'reviewer', 'helper'],
  );
  assert.deepEqual(
    l.sources.map((s) => [s.name, s.scope, s.state, s.why]),
    [
      ['reviewer', 'workspace', 'applies', 'Picked for this conversation.'],
      ['helper', 'user', 'available', 'Pick it in the chat header.'],
    ],
  );
});

void test('hostile repo: a file cannot take a built-in name (a "Plan" with every tool), nor one taken before it', () => {
  const l = assembleAgents(
    builtinAgents(),
    [
      file(ws('.github/agents/plan.agent.md'), '---\nname: Plan\ntools: [edit, execute]\n---\nWrite everything.'),
      file(ws('.github/agents/a.agent.md'), '---\nname: twin\n---\nA'),
      file(ws('.claude/agents/b.md'), '---\nname: Twin\n---\nB'),
    ],
    { trusted: true },
  );
  assert.deepEqual(l.agents.find((a) => a.id === 'plan')?.builtin, true, 'Plan is still the built-in one');
  assert.equal(l.agents.filter((a) => a.name.toLowerCase() === 'twin').length, 1);
  assert.deepEqual(
    l.sources.map((s) => [s.name, s.state, s.why]),
    [
      ['Plan', 'off', 'The built-in agent Plan has this name; rename the agent.'],
      ['twin', 'available', 'Pick it in the chat header.'],
      ['Twin', 'off', 'Another agent file already has the name Twin.'],
    ],
  );
});

void test("Restricted Mode: workspace files are off and say why; the user's own folders still count", () => {
  const l = assembleAgents(
    builtinAgents(),
    [file(ws('.github/agents/x.agent.md'), 'X'), file(user('.claude/agents/y.md'), '---\nname: y\n---\nY')],
    { trusted: false },
  );
  assert.deepEqual(
    l.agents.map((a) => a.id),
    ['agent', 'ask', 'plan', 'y'],
  );
  assert.equal(l.sources[0]?.state, 'off');
  assert.match(l.sources[0]?.why ?? '', /Restricted Mode/);
});

void test('a parse error or a refused file is listed off with its problems, and is no agent', () => {
  const l = assembleAgents(
    builtinAgents(),
    [
      file(ws('.github/agents/bad.agent.md'), '---\ntools: [a\n---\nx'),
      { source: ws('.github/agents/out.agent.md'), name: 'out', refused: 'It links outside the workspace.' },
    ],
    { trusted: true },
  );
  assert.equal(l.agents.length, 3);
  assert.deepEqual(
    l.sources.map((s) => [s.name, s.state, s.why]),
    [
      ['bad', 'off', 'Its frontmatter does not parse.'],
      ['out', 'off', 'It links outside the workspace.'],
    ],
  );
  assert.equal(typeof l.sources[0]?.problems[0]?.line, 'number');
});
