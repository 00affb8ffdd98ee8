import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  attachmentLabel,
  formatAttachment,
  truncationNote,
} from '../../../../../src/chat/conversation/core/attachments';
import type { ContextAttachment } from '../../../../../src/shared/protocol';

void test('the labelled part names kind, path and line range, and fences the content past its backticks', () => {
  const a: ContextAttachment = {
    kind: 'selection',
    label: 'src/a.md',
    path: 'src/a.md',
    startLine: 3,
    endLine: 9,
    language: 'markdown',
    text: 'text\n```js\ncode\n```\n',
  };
  const out = formatAttachment(a);
  assert.equal(out.split('\n')[0], '[Attached selection: src/a.md (path: src/a.md, lines 3-9)]');
  assert.ok(out.includes('````markdown\ntext\n```js\ncode\n```\n````'), out);
  assert.equal(attachmentLabel(a), 'src/a.md:3-9');
  assert.equal(attachmentLabel({ label: 'a.ts', startLine: 4, endLine: 4 }), 'a.ts:4');
  assert.equal(attachmentLabel({ label: 'Changes' }), 'Changes');
});

void test('an attachment without content carries its note (no repository, no shell integration)', () => {
  const a: ContextAttachment = {
    kind: 'changes',
    label: 'Changes',
    note: 'No git repository is open in this workspace.',
    text: '',
  };
  assert.equal(
    formatAttachment(a),
    '[Attached git changes (working tree): Changes]\nNo git repository is open in this workspace.',
  );
});

void test('the truncation note gives the shown and the full size, so the model does not take a part for the whole', () => {
  const a: ContextAttachment = {
    kind: 'file',
    label: 'big.txt',
    text: 'x'.repeat(1200),
    truncated: true,
    originalChars: 50_000,
  };
  assert.equal(
    truncationNote(a),
    '[Truncated: 1,200 of 50,000 characters shown; read the rest with a tool if needed.]',
  );
  assert.ok(formatAttachment(a).endsWith(truncationNote(a)));
  assert.ok(!formatAttachment({ ...a, truncated: undefined }).includes('[Truncated'));
});
