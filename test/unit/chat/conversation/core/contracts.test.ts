import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CHAT_PANEL_TYPE, CHAT_VIEW_ID } from '../../../../../src/chat/conversation/core/contracts';

interface Manifest {
  activationEvents?: string[];
  contributes: { views: Record<string, { id: string; type?: string }[]> };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

void test('the chat view id is the webview view package.json contributes', () => {
  const views = Object.values(manifest.contributes.views).flat();
  const chat = views.find((v) => v.id === CHAT_VIEW_ID);
  assert.ok(chat, `no view ${CHAT_VIEW_ID} in package.json`);
  assert.equal(chat.type, 'webview');
});

void test('the chat panel type is the one whose serializer package.json activates on', () => {
  assert.ok(
    (manifest.activationEvents ?? []).includes(`onWebviewPanel:${CHAT_PANEL_TYPE}`),
    `package.json does not activate on onWebviewPanel:${CHAT_PANEL_TYPE}`,
  );
});
