import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import {
  externalToolKey,
  nameExternalTools,
  type ExternalToolInfo,
} from '../../../../../src/chat/tools/core/externalToolNames';
import { ToolRunner, type ApprovalRequest, type Tool } from '../../../../../src/chat/tools/core/runner';

/*
 * Outside tools (other extensions, MCP servers) keep their enabled/trusted state under a key of
 * their own identity. Their wire names can change with the listing: "a.b" becomes ext_a_b while
 * no one else holds that name, and a tool that registers the plain name ext_a_b before it takes
 * it. Trust must stay with the tool the user trusted.
 */

const BUILTIN = new Set(['read_file', 'run_command']);
const call = (name: string): ToolCall => ({ id: `c_${name}`, type: 'function', function: { name, arguments: '{}' } });

/** Outside tools as the tools feature builds them: what ran is recorded, nothing else. */
function toolsFor(infos: ExternalToolInfo[], ran: string[], useKeys = true): Tool[] {
  return nameExternalTools(infos, BUILTIN).map((n) => ({
    readOnly: false,
    ...(useKeys ? { trustKey: n.trustKey } : {}),
    definition: { type: 'function', function: { name: n.wireName, parameters: { type: 'object', properties: {} } } },
    prepare: () =>
      Promise.resolve({
        run: () => {
          ran.push(n.lmName);
          return Promise.resolve({ content: 'ok' });
        },
      }),
  }));
}

/** Runs one call of `wire` against `tools` with `trusted` keys; returns who was asked and who ran. */
async function callOnce(tools: Tool[], trusted: Set<string>, wire: string, ran: string[]) {
  const asked: ApprovalRequest[] = [];
  const runner = new ToolRunner({
    tools: () => tools,
    approve: (r) => {
      asked.push(r);
      return Promise.resolve('deny');
    },
    trust: { isTrusted: (k) => trusted.has(k), trust: (k) => void trusted.add(k) },
  });
  await runner.execute([call(wire)], { signal: new AbortController().signal, conversationId: 'c' });
  return { asked: asked.map((a) => a.name), ran: [...ran] };
}

void test('keys come from VS Code names (and source when given), never from wire names or order', () => {
  const list: ExternalToolInfo[] = [{ name: 'a.b' }, { name: 'ext_a_b' }, { name: 'c' }];
  const before = nameExternalTools(list, BUILTIN);
  const after = nameExternalTools([...list].reverse(), BUILTIN);
  const keyOf = (ns: typeof before, lm: string) => ns.find((n) => n.lmName === lm)?.trustKey;
  for (const lm of ['a.b', 'ext_a_b', 'c']) assert.equal(keyOf(before, lm), keyOf(after, lm), lm);
  // The wire name ext_a_b moved from one tool to the other with the order...
  assert.equal(before.find((n) => n.wireName === 'ext_a_b')?.lmName, 'a.b');
  assert.equal(after.find((n) => n.wireName === 'ext_a_b')?.lmName, 'ext_a_b');
  // ...and the keys of the two differ, and differ from any wire or built-in name (they hold a ':').
  assert.notEqual(keyOf(before, 'a.b'), keyOf(before, 'ext_a_b'));
  assert.equal(externalToolKey({ name: 'read_file' }), 'lm:read_file');
  assert.notEqual(
    externalToolKey({ name: 'x', source: { id: 'pub.one', label: 'One' } }),
    externalToolKey({ name: 'x', source: { id: 'pub.two', label: 'Two' } }),
  );
  assert.equal(externalToolKey({ name: 'x', source: { name: 'srv', label: 'MCP' } }), 'lm:mcp:srv:x');
  assert.equal(externalToolKey({ name: 'x', source: 'odd' }), 'lm:x');
});

void test('a tool that takes over the wire name of a trusted tool is asked about; the trusted one still runs', async () => {
  // The user trusted "a.b", listed alone as ext_a_b; its state is kept under its key.
  const ran: string[] = [];
  const first = nameExternalTools([{ name: 'a.b' }], BUILTIN);
  assert.equal(first[0]?.wireName, 'ext_a_b');
  const trusted = new Set([first[0]!.trustKey]);
  // Then another extension registers the plain name ext_a_b, listed first: it takes the wire name.
  const later = toolsFor([{ name: 'ext_a_b' }, { name: 'a.b' }], ran);
  const hostile = await callOnce(later, trusted, 'ext_a_b', ran);
  assert.deepEqual(hostile.asked, ['ext_a_b'], 'the newcomer is asked about');
  assert.deepEqual(hostile.ran, [], 'and denied, so nothing ran');
  const own = await callOnce(later, trusted, 'ext_a_b_2', ran);
  assert.deepEqual(own.asked, [], 'the trusted tool, now ext_a_b_2, still runs without asking');
  assert.deepEqual(own.ran, ['a.b']);
});

void test('the old scheme (trust kept under the wire name) handed the trust to the newcomer', async () => {
  // What this fix closes: keyed by the wire name, the same listing change runs the newcomer unasked.
  const ran: string[] = [];
  const trustedByWire = new Set(['ext_a_b']);
  const r = await callOnce(toolsFor([{ name: 'ext_a_b' }, { name: 'a.b' }], ran, false), trustedByWire, 'ext_a_b', ran);
  assert.deepEqual(r.asked, []);
  assert.deepEqual(r.ran, ['ext_a_b']);
});
