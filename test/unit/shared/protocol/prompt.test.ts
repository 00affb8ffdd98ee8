import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promptHostMessages, promptWebviewMessages } from '../../../../src/shared/protocol/prompt';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(promptHostMessages);
const webview = union(promptWebviewMessages);

void test('every prompt message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    {
      type: 'prompt/rules',
      rules: ['agents', 'copilot', 'rules', 'nested', 'setting'].map((kind, i) => ({
        id: `r${i}`,
        kind,
        truncated: i === 0,
      })),
      blocked: false,
      warnings: ['AGENTS.md was cut to the size limit'],
    },
    { type: 'prompt/rules', rules: [], blocked: true, warnings: [] },
  ]);
  acceptsEvery(webview, [
    { type: 'prompt/setRuleEnabled', id: 'file:///w/AGENTS.md', enabled: false },
    { type: 'prompt/openRule', id: 'file:///w/AGENTS.md' },
    { type: 'prompt/allowUntrustedRules' },
    { type: 'prompt/show' },
  ]);
});

void test('a rule is named by at most 2,000 characters, switched by a boolean, of a known kind', () => {
  assert.match(refusal(webview, { type: 'prompt/openRule', id: 'i'.repeat(2001) }), /^id: Too big.*<=2000/);
  assert.match(
    refusal(webview, { type: 'prompt/setRuleEnabled', id: 'a', enabled: 'off' }),
    /^enabled: Invalid input: expected boolean/,
  );
  assert.equal(
    refusal(webview, { type: 'prompt/setRuleEnabled', id: 'a' }),
    'enabled: Invalid input: expected boolean, received undefined',
  );
  assert.match(
    refusal(host, {
      type: 'prompt/rules',
      rules: [{ id: 'a', kind: 'readme', truncated: false }],
      blocked: false,
      warnings: [],
    }),
    /^rules\.0\.kind: Invalid option/,
  );
  assert.match(refusal(host, { type: 'prompt/rules', rules: [], warnings: [] }), /^blocked: Invalid input/);
});
