import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slashHostMessages, slashWebviewMessages } from '../../../../src/shared/protocol/slash';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(slashHostMessages);
const webview = union(slashWebviewMessages);

void test('every slash message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    {
      type: 'slash/commands',
      items: [
        { kind: 'prompt', name: 'explain', description: 'Explain', argumentHint: '[file]', scope: 'workspace' },
        { kind: 'skill', name: 'pdf', scope: 'user' },
      ],
    },
    { type: 'slash/commands', items: [] },
  ]);
  acceptsEvery(webview, [{ type: 'slash/list' }]);
});

void test('a row is a prompt or a skill of a known scope, its name at most 100 characters', () => {
  const row = { kind: 'prompt', name: 'x', scope: 'workspace' };
  assert.match(refusal(host, { type: 'slash/commands', items: [{ ...row, kind: 'agent' }] }), /^items\.0\.kind/);
  assert.match(refusal(host, { type: 'slash/commands', items: [{ ...row, scope: 'org' }] }), /^items\.0\.scope/);
  assert.match(
    refusal(host, { type: 'slash/commands', items: [{ ...row, name: 'n'.repeat(101) }] }),
    /^items\.0\.name: Too big/,
  );
});
