// The rules model (webview/chat/models/rules.ts): the chips and whether they are blocked.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRulesModel } from '../../../../../webview/chat/models/rules';

void test('the host’s rules replace the chips, blocked and warnings', () => {
  const r = createRulesModel();
  assert.deepEqual(r.rules.value, { chips: [], blocked: false, warnings: [] });
  const chip = { id: '.gatewaystudio/rules/style.md', kind: 'rules', truncated: true } as const;
  r.onHost({ type: 'prompt/rules', rules: [chip], blocked: true, warnings: ['style.md was cut'] });
  assert.deepEqual(r.rules.value, { chips: [chip], blocked: true, warnings: ['style.md was cut'] });
});
