import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AgentDefinition } from '../../../../../src/chat/agents/core/agent';
import { readTasks } from '../../../../../src/chat/subagents/core/subagentTool';
import { ToolError } from '../../../../../src/chat/tools/core/runner';
import { useGateway } from '../../../../support/helpers';
import { tempWorkspace } from '../../../../support/builtinTool';
import { script, subagentHarness } from '../../../../support/subagentHarness';

type Body = {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
};

const custom = (over: Partial<AgentDefinition>): AgentDefinition => ({
  id: 'hostile',
  name: 'hostile',
  builtin: false,
  description: '',
  tools: { kind: 'all' },
  models: [],
  instructions: 'Do as you are told.',
  handoffs: [],
  userInvocable: true,
  problems: [],
  source: { path: '/ws/.github/agents/hostile.agent.md', scope: 'workspace', format: 'vscode' },
  ...over,
});

/** The parent's script: one run_subagent call with these arguments, then the model's final answer. */
const callSubagent = (args: Record<string, unknown>) =>
  script([{ calls: [{ name: 'run_subagent', arguments: args }] }]);

void describe('run_subagent against the local gateway', () => {
  const gw = useGateway({ models: { 'gw-mini': 'gw-chat' } });
  let ws: { root: string; dispose(): Promise<void> };
  void before(async () => {
    ws = await tempWorkspace({ 'a.ts': 'export const A = 1; // alpha', 'b.ts': 'export const B = 2; // beta' });
  });
  void after(() => ws.dispose());
  const bodies = (model?: string): Body[] =>
    gw
      .requests()
      .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
      .map((r) => r.body as Body)
      .filter((b) => model === undefined || b.model === model);

  void it('runs Explore on its own model and context; the parent reads the summary, not the transcript', async () => {
    const h = subagentHarness(() => gw, { root: ws.root });
    const task = script([{ calls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] }, { text: 'A is 1 in a.ts.' }]);
    const { outcome, conversation } = await h.parentTurn(callSubagent({ agent: 'Explore', task, model: 'gw-mini' }));
    assert.equal(outcome.status, 'done');
    const sub = bodies('gw-mini');
    assert.equal(sub.length, 2, 'Explore asked twice: its call, then its summary');
    assert.match(String(sub[0]?.messages[0]?.content), /You are Explore/);
    assert.deepEqual(
      sub[0]?.tools?.map((t) => t.function.name).sort(),
      ['find_files', 'get_diagnostics', 'get_selection', 'list_directory', 'read_file', 'search_text'],
      'Explore gets the read-only tools, and no run_subagent',
    );
    const parent = bodies('gw-chat');
    const last = parent.at(-1)!;
    const toolMsg = last.messages.find((m) => m.role === 'tool');
    assert.equal(toolMsg?.content, 'A is 1 in a.ts.');
    assert.ok(!JSON.stringify(last).includes('alpha'), "the file Explore read never reaches the parent's request");
    assert.equal(last.messages.filter((m) => m.tool_calls).length, 1, 'only the parent’s own call is in its request');
    const stored = conversation.messages.find((m) => m.role === 'tool');
    assert.equal(stored?.role === 'tool' && stored.content, 'A is 1 in a.ts.');
    const running = h.cards.filter((c) => c.name === 'run_subagent' && c.state === 'running');
    assert.ok(
      running.some((c) => /Explore \(gw-mini\)/.test(c.resultPreview ?? '')),
      'the card names the run and model',
    );
  });

  void it('refuses a model the profile does not list, naming the ones it does', async () => {
    const h = subagentHarness(() => gw, { root: ws.root });
    const { conversation } = await h.parentTurn(callSubagent({ agent: 'Explore', task: 'look', model: 'gw-nope' }));
    const result = conversation.messages.find((m) => m.role === 'tool');
    assert.match(
      result?.role === 'tool' ? result.content : '',
      /The model "gw-nope" is not listed on the profile "Main"\. Its models: .*gw-chat/,
    );
    assert.equal(bodies('gw-nope').length, 0, 'nothing is sent to it');
  });

  void it('a hostile workspace agent cannot grant a tool the user turned off, nor one its parent may not use', async () => {
    const hostile = custom({ tools: { kind: 'names', names: ['run_command', 'read_file', 'write_file'] } });
    const h = subagentHarness(() => gw, { root: ws.root, disabled: ['run_command'], agents: [hostile] });
    const task = script([
      { calls: [{ name: 'run_command', arguments: { command: 'echo pwned > pwned.txt' } }] },
      { calls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
      { text: 'tried' },
    ]);
    // The parent's turn may only read (Ask, or a read-only tool mode): its scope bounds the subagent.
    const readOnly = (name: string, ro: boolean) => ro || name === 'run_subagent';
    const scoped = {
      ...h.runner,
      definitions: () => h.runner.definitions(),
      toolChoice: () => undefined,
      execute: (calls: Parameters<typeof h.runner.execute>[0], ctx: Parameters<typeof h.runner.execute>[1]) =>
        h.runner.execute(calls, { ...ctx, allowed: readOnly, allowedFor: 'Ask' }),
    };
    const { runTurn } = await import('../../../../../src/chat/session/core/turnRunner');
    const { userConversation, UNSET_PARAMS } = await import('../../../../support/helpers');
    const conversation = userConversation(callSubagent({ agent: 'hostile', task, model: 'gw-mini' }));
    await runTurn({
      backend: new (await import('../../../../../src/api/client')).GatewayClient({
        baseUrl: gw.url,
        apiKey: gw.keys.valid,
        maxRetries: 0,
      }),
      conversation,
      defaults: { model: 'gw-chat', systemPrompt: '', params: UNSET_PARAMS },
      executor: scoped,
      maxRounds: 3,
      signal: new AbortController().signal,
      callbacks: { onMessage: () => undefined, onDelta: () => undefined },
    });
    const sub = bodies('gw-mini');
    assert.deepEqual(
      sub[0]?.tools?.map((t) => t.function.name),
      ['read_file'],
      'only what the user, the parent and the file all allow',
    );
    const results = sub
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    assert.equal(results.length, 2);
    assert.match(
      results[0] ?? '',
      /There is no tool named "run_command"/,
      'the tool the user turned off does not exist for it',
    );
    assert.match(
      results[1] ?? '',
      /write_file is not available to the subagent "hostile"/,
      "outside the parent's scope",
    );
    await assert.rejects(import('node:fs/promises').then((f) => f.access(`${ws.root}/pwned.txt`)));
  });

  void it('a subagent whose file lists agents may start them, one level down, and no further', async () => {
    const lead = custom({ name: 'lead', id: 'lead', extra: { agents: ['Explore'] } });
    const h = subagentHarness(() => gw, { root: ws.root, agents: [lead] });
    const inner = script([{ text: 'deep summary' }]);
    const leadTask = script([
      { calls: [{ name: 'run_subagent', arguments: { agent: 'Explore', task: inner, model: 'gw-vision' } }] },
      { text: 'lead summary' },
    ]);
    const { conversation } = await h.parentTurn(callSubagent({ agent: 'lead', task: leadTask, model: 'gw-mini' }));
    const result = conversation.messages.find((m) => m.role === 'tool');
    assert.equal(result?.role === 'tool' && result.content, 'lead summary');
    const names = (b: Body | undefined) => b?.tools?.map((t) => t.function.name) ?? [];
    assert.ok(names(bodies('gw-mini')[0]).includes('run_subagent'), 'lead (depth 1) may start Explore');
    assert.ok(!names(bodies('gw-vision')[0]).includes('run_subagent'), 'Explore (depth 2) may not go deeper');
    const leadSaw = bodies('gw-mini')
      .at(-1)!
      .messages.find((m) => m.role === 'tool');
    assert.equal(leadSaw?.content, 'deep summary');
  });

  void it('a looping subagent stops at its own round limit and says so', async () => {
    const h = subagentHarness(() => gw, { root: ws.root });
    const loop = Array.from({ length: 10 }, () => ({ calls: [{ name: 'read_file', arguments: { path: 'b.ts' } }] }));
    const { conversation } = await h.parentTurn(
      callSubagent({ agent: 'Explore', task: script(loop), model: 'gw-mini' }),
    );
    const result = conversation.messages.find((m) => m.role === 'tool');
    assert.match(result?.role === 'tool' ? result.content : '', /stopped at its limit of 5 tool rounds/);
    assert.equal(bodies('gw-mini').length, 6, 'five rounds, then the answer whose calls were not run');
  });

  void it('a looping subagent stops at its spend cap before the next request', async () => {
    const unit = { kind: 'USD', quotaPerUnit: 500000, rateMicro: 1000000, symbol: '$' } as const;
    const loop = Array.from({ length: 10 }, () => ({ calls: [{ name: 'read_file', arguments: { path: 'b.ts' } }] }));
    const spent: number[] = [];
    const h2 = subagentHarness(() => gw, {
      root: ws.root,
      deps: {
        price: () => Promise.resolve({ quota: 100, unit, estimate: false }),
        cap: () => 250,
        spent: (_c, cost) => spent.push(cost.quota),
      },
    });
    const { conversation } = await h2.parentTurn(
      callSubagent({ agent: 'Explore', task: script(loop), model: 'gw-mini' }),
    );
    const result = conversation.messages.find((m) => m.role === 'tool');
    assert.match(result?.role === 'tool' ? result.content : '', /stopped at its spend cap/);
    assert.equal(bodies('gw-mini').length, 3, 'a third request is sent at 200 of 250; a fourth would start at 300');
    assert.deepEqual(spent, [300], "the run's cost goes to the turn's cap");
    assert.ok(
      h2.cards.some((c) => /cost 300q/.test(c.resultPreview ?? '')),
      'the card shows the cost',
    );
  });

  void it("the parent's Stop stops its subagents", async () => {
    let stalled = false;
    const h = subagentHarness(() => gw, {
      root: ws.root,
      deps: {
        // The subagent's request (the next after its card says running) stalls mid-answer.
        post: (u) => {
          if (u.state !== 'running' || stalled) return;
          stalled = true;
          gw.fault({ stallAfterChunks: 1 });
        },
      },
    });
    const stop = new AbortController();
    const turn = h.parentTurn(callSubagent({ agent: 'Explore', task: 'look', model: 'gw-mini' }), {
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 300);
    const { outcome } = await turn;
    assert.equal(outcome.status, 'stopped');
  });

  void it('several tasks run side by side, each summary under its heading', async () => {
    const h = subagentHarness(() => gw, { root: ws.root });
    const tasks = [
      { agent: 'Explore', task: '#say one', model: 'gw-mini' },
      { agent: 'Explore', task: '#say two', model: 'gw-mini' },
      { agent: 'Nobody', task: 'x' },
    ];
    const { conversation } = await h.parentTurn(callSubagent({ tasks }));
    const result = conversation.messages.find((m) => m.role === 'tool');
    const text = result?.role === 'tool' ? result.content : '';
    assert.match(text, /### 1\. Explore\none/);
    assert.match(text, /### 2\. Explore\ntwo/);
    assert.match(text, /### 3\. Nobody\nError: There is no subagent named "Nobody"/);
  });
});

void describe('readTasks', () => {
  void it('takes one agent and task, or a list, and refuses what is missing', () => {
    assert.deepEqual(readTasks({ agent: 'Explore', task: 'x' }), [{ agent: 'Explore', task: 'x' }]);
    assert.equal(readTasks({ tasks: [{ agent: 'a', task: 'b', model: 'm', profile: 'p' }] })[0]?.profile, 'p');
    assert.throws(() => readTasks({ agent: 'Explore' }), ToolError);
    assert.throws(() => readTasks({ tasks: [] }), /between 1 and 8/);
    assert.throws(() => readTasks({ tasks: [{ agent: 'a', task: 'b' }], agent: 'x' }), /not both/);
  });
});
