import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { GatewayClient } from '../../../../../src/api/client';
import { buildChatRequest, type RequestDefaults } from '../../../../../src/chat/conversation/core/request';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { nodeToolHost } from '../../../../support/nodeToolHost';
import {
  DECLINED_MESSAGE,
  ToolRunner,
  type ApprovalRequest,
  type ToolDecision,
  type ToolChoiceSetting,
} from '../../../../../src/chat/tools/core/runner';
import { runTurn, type TurnOutcome } from '../../../../../src/chat/session/core/turnRunner';
import type { AssistantMessage, Conversation, ToolResultMessage } from '../../../../../src/shared/protocol';
import type { ToolExecutor } from '../../../../../src/chat/tools/core/seam';
import { UNSET_PARAMS, useGateway, userConversation as conv } from '../../../../support/helpers';
import type { ToolStyle } from '../../../../gateway/faults';

/*
 * The tool loop end to end: runTurn against the local gateway's scripted tool calls, with the
 * real validation, path policy, runner and built-in tools over a temporary workspace. Only the
 * user's approval is scripted.
 */

const defaults = (model = 'gw-chat'): RequestDefaults => ({
  model,
  systemPrompt: '',
  params: UNSET_PARAMS,
});

const gw = useGateway();
let ws: string;
let outside: string;
const X_TS = 'export function add(a: number, b: number) {\n  return a - b;\n}\n';

before(async () => {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-turn-')));
  ws = path.join(tmp, 'ws');
  outside = path.join(tmp, 'outside');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.mkdir(path.join(ws, '.git'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(ws, 'src', 'x.ts'), X_TS);
  await fs.writeFile(path.join(ws, 'README.md'), '# demo\n');
  await fs.writeFile(path.join(ws, '.git', 'config'), '[core]\n');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'TOP-SECRET');
  await fs.symlink(outside, path.join(ws, 'escape'));
});
after(async () => {
  await fs.rm(path.dirname(ws), { recursive: true, force: true });
});

interface Harness {
  runner: ToolRunner;
  asked: ApprovalRequest[];
  trusted: Set<string>;
}

function harness(
  decide: (r: ApprovalRequest) => ToolDecision = () => 'allow',
  choice: ToolChoiceSetting = 'auto',
): Harness {
  const asked: ApprovalRequest[] = [];
  const trusted = new Set<string>();
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: ws }]));
  const runner = new ToolRunner({
    tools: () => tools,
    approve: (r) => {
      asked.push(r);
      return Promise.resolve(decide(r));
    },
    trust: { isTrusted: (n) => trusted.has(n), trust: (n) => void trusted.add(n) },
    choice: () => choice,
  });
  return { runner, asked, trusted };
}

const script = (turns: unknown[]) => `#tools ${JSON.stringify(turns)}`;
const callsTurn = (...calls: { name: string; arguments: unknown }[]) => ({ calls });

async function turn(
  c: Conversation,
  h: Harness,
  o: { maxRounds?: number; model?: string; signal?: AbortSignal } = {},
): Promise<TurnOutcome> {
  return runTurn({
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: c,
    defaults: defaults(o.model),
    executor: h.runner,
    maxRounds: o.maxRounds ?? 10,
    signal: o.signal ?? new AbortController().signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
  });
}

const answers = (c: Conversation) => c.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
const toolMsgs = (c: Conversation) => c.messages.filter((m): m is ToolResultMessage => m.role === 'tool');
const finalText = (c: Conversation) => answers(c).at(-1)?.content ?? '';
const chatBodies = () =>
  gw
    .requests()
    .filter((r) => r.route === '/v1/chat/completions')
    .map(
      (r) =>
        r.body as {
          messages: {
            role: string;
            tool_calls?: { id: string }[];
            tool_call_id?: string;
            content?: unknown;
            reasoning_content?: string;
          }[];
          tools?: unknown[];
          tool_choice?: unknown;
        },
    );

void test('one call: the file is read, answered with its tool_call_id, and the model answers after it', async () => {
  gw.resetCounts();
  const h = harness();
  const c = conv(script([callsTurn({ name: 'read_file', arguments: { path: 'src/x.ts' } })]));
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  assert.equal(out.rounds, 1);
  const [first] = answers(c);
  const call = first?.toolCalls?.[0];
  assert.equal(call?.function.name, 'read_file');
  const [tm] = toolMsgs(c);
  assert.equal(tm?.toolCallId, call?.id);
  assert.match(tm?.content ?? '', /return a - b;/);
  assert.match(finalText(c), /^Done\. Tool results: read_file=File src\/x\.ts, lines 1-3 of 3/);
  // The second request carried the assistant's tool_calls and the matching tool message.
  const second = chatBodies()[1];
  assert.ok(second?.tools && second.tools.length === 9, 'every built-in tool is offered');
  const asst = second?.messages.find((m) => m.role === 'assistant');
  const tool = second?.messages.find((m) => m.role === 'tool');
  assert.equal(asst?.tool_calls?.[0]?.id, call?.id);
  assert.equal(tool?.tool_call_id, call?.id);
});

void test('parallel calls run in order and each gets its own tool message', async () => {
  const h = harness();
  const c = conv(
    script([
      callsTurn(
        { name: 'read_file', arguments: { path: 'README.md' } },
        { name: 'list_directory', arguments: { path: 'src' } },
        { name: 'find_files', arguments: { pattern: '*.ts' } },
      ),
    ]),
  );
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  const calls = answers(c)[0]?.toolCalls ?? [];
  assert.equal(calls.length, 3);
  const tms = toolMsgs(c);
  assert.deepEqual(
    tms.map((t) => t.toolCallId),
    calls.map((x) => x.id),
  );
  assert.match(tms[0]?.content ?? '', /# demo/);
  assert.match(tms[1]?.content ?? '', /Folder src \(1 entries\):\nx\.ts/);
  assert.match(tms[2]?.content ?? '', /src\/x\.ts/);
  assert.match(finalText(c), /read_file=.*list_directory=.*find_files=/s);
  assert.equal(h.asked.length, 3, 'read-only tools still ask until the user allows them always');
});

const STYLES: ToolStyle[] = ['canonical', 'no-index', 'all-index-0', 'whole', 'multi-per-chunk', 'args-with-finish'];
for (const style of STYLES) {
  void test(`parallel calls streamed as "${style}" (split into 5-byte pieces) arrive whole and run with their own arguments`, async () => {
    gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolStyle: style, split: 5 });
    try {
      const h = harness();
      const longPath = 'src/x.ts';
      const c = conv(
        script([
          callsTurn(
            { name: 'read_file', arguments: { path: longPath, startLine: 2, endLine: 2 } },
            { name: 'search_text', arguments: { query: 'return a', include: '**/*.ts' } },
          ),
        ]),
      );
      const out = await turn(c, h);
      assert.equal(out.status, 'done', JSON.stringify(answers(c).map((a) => a.error)));
      const calls = answers(c)[0]?.toolCalls ?? [];
      assert.deepEqual(
        calls.map((x) => x.function.name),
        ['read_file', 'search_text'],
      );
      assert.equal(new Set(calls.map((x) => x.id)).size, 2);
      const [read, search] = toolMsgs(c);
      assert.equal(
        read?.content,
        'File src/x.ts, lines 2-2 of 3 (the file continues to line 3; read more with startLine 3):\n  return a - b;',
      );
      assert.match(search?.content ?? '', /src\/x\.ts:2: return a - b;/);
    } finally {
      gw.clearFaults();
    }
  });
}

void test('arguments that are not valid JSON are not run; the model is told what was wrong and can correct itself', async () => {
  const h = harness();
  const c = conv(
    script([
      callsTurn({ name: 'read_file', arguments: '{"path": "src/x.ts", "startLine": }' }),
      callsTurn({ name: 'read_file', arguments: { path: 'src/x.ts' } }),
    ]),
  );
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  const [bad, good] = toolMsgs(c);
  assert.match(
    bad?.content ?? '',
    /^Error: The arguments are not valid JSON .*At position 34 a value was expected\. Near position 34: `.*"startLine": \}`/,
  );
  assert.match(bad?.content ?? '', /The tool was not run\./);
  assert.match(good?.content ?? '', /return a - b;/);
  assert.equal(h.asked.length, 1, 'only the corrected call reached the approval step');
});

void test('arguments that break the schema are refused with each problem named', async () => {
  const h = harness();
  const c = conv(script([callsTurn({ name: 'read_file', arguments: { file: 'src/x.ts', startLine: 0 } })]));
  await turn(c, h);
  const [tm] = toolMsgs(c);
  assert.match(tm?.content ?? '', /missing required property "path"/);
  assert.match(tm?.content ?? '', /unknown property "file"/);
  assert.match(tm?.content ?? '', /"startLine" must be >= 1/);
  assert.equal(h.asked.length, 0);
});

void test('an unknown tool is answered with the list of tools that exist', async () => {
  const h = harness();
  const c = conv(script([callsTurn({ name: 'delete_repository', arguments: {} })]));
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  const [tm] = toolMsgs(c);
  assert.match(
    tm?.content ?? '',
    /There is no tool named "delete_repository"\. Available tools: read_file, list_directory, find_files, search_text, get_selection, get_diagnostics, write_file, edit_file, run_command\./,
  );
  assert.match(finalText(c), /delete_repository=|unknown=|Error: There is no tool/);
});

void test('the round limit stops the loop with a notice, and the calls it did not run are still answered', async () => {
  gw.resetCounts();
  const h = harness();
  const many = Array.from({ length: 5 }, () => callsTurn({ name: 'list_directory', arguments: {} }));
  const c = conv(script(many));
  const out = await turn(c, h, { maxRounds: 2 });
  assert.equal(out.status, 'max-rounds');
  assert.equal(out.rounds, 2);
  assert.equal(chatBodies().length, 3, 'two rounds ran, the third answer was not executed');
  assert.match(answers(c).at(-1)?.notices?.join(' ') ?? '', /Stopped after 2 rounds/);
  const tms = toolMsgs(c);
  assert.equal(tms.length, 3);
  assert.match(tms[2]?.content ?? '', /Not run: the limit/);
  assert.equal(h.asked.length, 2);
});

void test('a denied edit leaves the file as it was and the model reads that the user declined', async () => {
  const h = harness((r) => (r.name === 'edit_file' ? 'deny' : 'allow'));
  const c = conv(
    script([callsTurn({ name: 'edit_file', arguments: { path: 'src/x.ts', oldText: 'a - b', newText: 'a + b' } })]),
  );
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  assert.equal(await fs.readFile(path.join(ws, 'src', 'x.ts'), 'utf8'), X_TS);
  assert.equal(toolMsgs(c)[0]?.content, DECLINED_MESSAGE);
  assert.match(finalText(c), /edit_file=The user declined this tool call/);
  assert.match(h.asked[0]?.summary ?? '', /-\s+return a - b;\n\+\s+return a \+ b;/, 'the approval showed the change');
});

void test('an approved edit is applied, and read back by the next call of the same turn', async () => {
  const file = path.join(ws, 'src', 'fixme.ts');
  await fs.writeFile(file, 'const n: number = "one";\n');
  const h = harness();
  const c = conv(
    script([
      callsTurn({ name: 'edit_file', arguments: { path: 'src/fixme.ts', oldText: '"one"', newText: '1' } }),
      callsTurn({ name: 'read_file', arguments: { path: 'src/fixme.ts' } }),
    ]),
  );
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  assert.equal(await fs.readFile(file, 'utf8'), 'const n: number = 1;\n');
  assert.match(toolMsgs(c)[1]?.content ?? '', /const n: number = 1;/);
});

void test('tool_choice none sends "none" and the model answers in text without calling', async () => {
  gw.resetCounts();
  const h = harness(() => 'allow', 'none');
  const c = conv(script([callsTurn({ name: 'read_file', arguments: { path: 'src/x.ts' } })]));
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  assert.equal(chatBodies()[0]?.tool_choice, 'none');
  assert.equal(toolMsgs(c).length, 0);
  assert.match(finalText(c), /I would call read_file, but no tools are available/);
});

void test('a specific tool_choice forces that tool once, then the model may answer', async () => {
  gw.resetCounts();
  const h = harness(() => 'allow', { name: 'list_directory' });
  const c = conv('what is in this project?');
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  const bodies = chatBodies();
  assert.deepEqual(bodies[0]?.tool_choice, { type: 'function', function: { name: 'list_directory' } });
  assert.equal(bodies[1]?.tool_choice, undefined, 'the follow-up request is auto');
  assert.equal(answers(c)[0]?.toolCalls?.[0]?.function.name, 'list_directory');
  assert.match(toolMsgs(c)[0]?.content ?? '', /README\.md/);
  assert.equal(out.rounds, 1);
});

void test('a forced tool is still forced only once when something reads the tool choice between rounds (the meter, a reloaded view)', async () => {
  gw.resetCounts();
  const h = harness(() => 'allow', { name: 'list_directory' });
  // The executor as the session sees it, with the context meter reading the choice while the tool runs.
  const metered: ToolExecutor = {
    definitions: () => h.runner.definitions(),
    toolChoice: (...a) => h.runner.toolChoice(...a),
    execute: async (calls, ctx) => {
      const out = await h.runner.execute(calls, ctx);
      h.runner.toolChoice();
      return out;
    },
  };
  const c = conv('what is in this project?');
  const out = await runTurn({
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: c,
    defaults: defaults(),
    executor: metered,
    maxRounds: 3,
    signal: new AbortController().signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
  });
  const bodies = chatBodies();
  assert.deepEqual(bodies[0]?.tool_choice, { type: 'function', function: { name: 'list_directory' } });
  assert.equal(bodies[1]?.tool_choice, undefined, 'the follow-up request was forced again');
  assert.equal(out.rounds, 1);
});

void test('path escapes through ../, absolute paths, symlinks and .git are refused and nothing outside is read or written', async () => {
  const h = harness();
  const c = conv(
    script([
      callsTurn(
        { name: 'read_file', arguments: { path: '../outside/secret.txt' } },
        { name: 'read_file', arguments: { path: path.join(outside, 'secret.txt') } },
        { name: 'read_file', arguments: { path: 'escape/secret.txt' } },
        { name: 'write_file', arguments: { path: 'escape/planted.txt', content: 'x' } },
        { name: 'read_file', arguments: { path: '.git/config' } },
        { name: 'write_file', arguments: { path: '.vscode/settings.json', content: '{}' } },
        { name: 'run_command', arguments: { command: 'cat secret.txt', cwd: 'escape' } },
      ),
    ]),
  );
  const out = await turn(c, h);
  assert.equal(out.status, 'done');
  const tms = toolMsgs(c).map((t) => t.content);
  assert.equal(tms.length, 7);
  assert.match(tms[0] ?? '', /leaves the workspace/);
  assert.match(tms[1] ?? '', /outside the workspace/);
  assert.match(tms[2] ?? '', /symbolic link that points outside/);
  assert.match(tms[3] ?? '', /symbolic link that points outside/);
  assert.match(tms[4] ?? '', /inside \.git\//);
  assert.match(tms[5] ?? '', /inside \.vscode\//);
  assert.match(tms[6] ?? '', /symbolic link that points outside/);
  for (const t of tms) assert.doesNotMatch(t, /TOP-SECRET/);
  await assert.rejects(fs.stat(path.join(outside, 'planted.txt')));
  await assert.rejects(fs.stat(path.join(ws, '.vscode')));
  assert.equal(h.asked.length, 0, 'refused before anyone was asked');
});

void test('a saved conversation stopped at the round limit resumes after its tool messages, with reasoning sent back', async () => {
  const storage = new MemoryStorage();
  const h = harness();
  const c = conv(
    script([
      callsTurn({ name: 'list_directory', arguments: {} }),
      callsTurn({ name: 'read_file', arguments: { path: 'README.md' } }),
      callsTurn({ name: 'find_files', arguments: { pattern: '*.md' } }),
    ]),
  );
  const first = await turn(c, h, { maxRounds: 1, model: 'gw-reasoner' });
  assert.equal(first.status, 'max-rounds');
  await new ConversationStore(storage).save(c);

  // A new window: a new store reads the conversation back (MemoryStorage round-trips through JSON
  // like a Memento) and the loop continues from it.
  const loaded = new ConversationStore(storage).load(c.id);
  assert.ok(loaded, 'the conversation was stored');
  assert.equal(toolMsgs(loaded).length, 2);
  gw.resetCounts();
  const resumed = await turn(loaded, harness(), { model: 'gw-reasoner' });
  assert.equal(resumed.status, 'done', JSON.stringify(answers(loaded).at(-1)?.error));
  const body = chatBodies()[0];
  const assistants = body?.messages.filter((m) => m.role === 'assistant') ?? [];
  assert.equal(assistants.length, 2);
  for (const a of assistants)
    assert.ok(
      a.reasoning_content && a.reasoning_content.length > 0,
      'reasoning_content is sent back on tool-call turns',
    );
  // Round 1 ran, round 2 was cut by the limit (answered "not run"), round 3 ran after resuming.
  assert.match(
    finalText(loaded),
    /^Done\. Tool results: list_directory=Folder \. .*read_file=Not run: the limit.*find_files=1 file\(s\) match/s,
  );
});

void test("the request bodies we build type-check as the openai package's ChatCompletionCreateParams", async () => {
  const h = harness();
  const c = conv(script([callsTurn({ name: 'read_file', arguments: { path: 'src/x.ts' } })]));
  await turn(c, h);
  const req = buildChatRequest(c, defaults(), {
    tools: h.runner.definitions(),
    toolChoice: { type: 'function', function: { name: 'read_file' } },
  });
  // Compile-time: these assignments fail `tsc` if our wire types drift from the official ones.
  const messages: ChatCompletionMessageParam[] = req.messages;
  const tools: ChatCompletionTool[] = req.tools ?? [];
  const choice: ChatCompletionToolChoiceOption | undefined = req.tool_choice;
  const params: ChatCompletionCreateParams = {
    model: req.model,
    messages,
    tools,
    ...(choice ? { tool_choice: choice } : {}),
    stream: true,
  };
  assert.equal(params.messages.filter((m) => m.role === 'tool').length, 1);
  assert.equal(
    params.messages.filter((m) => m.role === 'assistant' && 'tool_calls' in m && m.tool_calls?.length).length,
    1,
  );
});

void test('Stop while the second of two calls awaits approval: the first call, already applied, is answered with its real result', async () => {
  const file = path.join(ws, 'src', 'made-before-stop.txt');
  const ctl = new AbortController();
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: ws }]));
  const runner = new ToolRunner({
    tools: () => tools,
    approve: (r) => {
      if (r.name === 'write_file') return Promise.resolve('allow');
      // The user presses Stop instead of answering the second card.
      setTimeout(() => ctl.abort(), 10);
      return new Promise<ToolDecision>(() => undefined);
    },
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  const c = conv(
    script([
      callsTurn(
        { name: 'write_file', arguments: { path: 'src/made-before-stop.txt', content: 'written\n' } },
        { name: 'read_file', arguments: { path: 'README.md' } },
      ),
    ]),
  );
  const out = await turn(c, { runner, asked: [], trusted: new Set() }, { signal: ctl.signal });
  assert.equal(out.status, 'stopped');
  assert.equal(await fs.readFile(file, 'utf8'), 'written\n', 'the approved write happened');
  const tms = toolMsgs(c);
  assert.equal(tms.length, 2, 'every call is still answered');
  assert.match(
    tms[0]?.content ?? '',
    /^Created src\/made-before-stop\.txt/,
    'the model is told the file was created, not that it was stopped',
  );
  assert.match(tms[1]?.content ?? '', /stopped/);
});
