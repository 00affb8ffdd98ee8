import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  contextAttachmentSchema,
  MENTION_KINDS,
  mentionItemSchema,
  mentionsHostMessages,
  mentionsWebviewMessages,
} from '../../../../src/shared/protocol/mentions';
import { accepts, acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(mentionsHostMessages);
const webview = union(mentionsWebviewMessages);
const item = { kind: 'file', label: 'parser.ts', detail: 'src', ref: 'file:///w/src/parser.ts' };

void test('every mentions message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    { type: 'mentions/results', queryId: 'q1', items: [item], note: 'more than 50 matches' },
    { type: 'mentions/results', queryId: 'q2', items: [] },
    { type: 'mentions/add', items: [item], problems: ['big.bin is not text'] },
  ]);
  acceptsEvery(webview, [
    { type: 'mentions/query', queryId: 'q1', query: 'pars' },
    { type: 'mentions/drop', uris: ['file:///w/src/parser.ts'] },
  ]);
});

void test('every mention kind makes a chip; another kind is refused', () => {
  for (const kind of MENTION_KINDS) accepts(mentionItemSchema, { kind, label: kind, ref: '' });
  assert.match(refusal(mentionItemSchema, { ...item, kind: 'url' }), /^kind: Invalid option/);
  assert.match(refusal(mentionItemSchema, { ...item, label: 'l'.repeat(501) }), /^label: Too big.*<=500/);
  assert.match(refusal(mentionItemSchema, { ...item, ref: 'r'.repeat(4001) }), /^ref: Too big.*<=4000/);
  assert.equal(
    refusal(mentionItemSchema, { kind: 'file', label: 'a' }),
    'ref: Invalid input: expected string, received undefined',
  );
});

void test('a query is at most 500 characters and a drop at most 50 URIs of 4,000 characters', () => {
  assert.match(
    refusal(webview, { type: 'mentions/query', queryId: 'q1', query: 'q'.repeat(501) }),
    /^query: Too big.*<=500/,
  );
  assert.match(refusal(webview, { type: 'mentions/query', queryId: '', query: 'a' }), /^queryId: Too small/);
  assert.match(
    refusal(webview, { type: 'mentions/drop', uris: Array(51).fill('file:///a') }),
    /^uris: Too big.*<=50 items/,
  );
  assert.match(refusal(webview, { type: 'mentions/drop', uris: ['u'.repeat(4001)] }), /^uris\.0: Too big.*<=4000/);
  assert.match(refusal(host, { type: 'mentions/add', items: [item] }), /^problems: Invalid input: expected array/);
});

void test("a mention's content as stored: lines from 1, sizes whole, fields bounded", () => {
  const attachment = {
    kind: 'selection',
    label: 'parser.ts:3-9',
    path: 'src/parser.ts',
    startLine: 3,
    endLine: 9,
    language: 'typescript',
    text: 'const x = 1;',
    truncated: true,
    originalChars: 90_000,
    note: 'cut to the size limit',
  };
  accepts(contextAttachmentSchema, attachment);
  accepts(contextAttachmentSchema, { kind: 'terminal', label: 'Terminal', text: '$ ls' });
  assert.match(refusal(contextAttachmentSchema, { ...attachment, startLine: 0 }), /^startLine: Too small.*>0/);
  assert.match(
    refusal(contextAttachmentSchema, { ...attachment, endLine: 2.5 }),
    /^endLine: Invalid input: expected int/,
  );
  assert.match(
    refusal(contextAttachmentSchema, { ...attachment, originalChars: -1 }),
    /^originalChars: Too small.*>=0/,
  );
  assert.match(refusal(contextAttachmentSchema, { ...attachment, path: 'p'.repeat(2001) }), /^path: Too big.*<=2000/);
  assert.match(refusal(contextAttachmentSchema, { ...attachment, language: 'l'.repeat(101) }), /^language: Too big/);
  assert.match(refusal(contextAttachmentSchema, { ...attachment, note: 'n'.repeat(2001) }), /^note: Too big/);
  assert.match(refusal(contextAttachmentSchema, { kind: 'file', label: 'a' }), /^text: Invalid input/);
});
