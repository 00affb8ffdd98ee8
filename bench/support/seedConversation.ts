/**
 * Test entry (`extensionTestsPath`) of bench/webview-latency.bench.ts, run inside the real
 * extension host: stores the conversation in `$GWS_SEED_FILE` through the extension's own
 * ConversationStore (its workspaceState) as the active one, then reloads the window so the
 * chat starts again from storage. After the reload it only says that the conversation is there.
 * It never settles: the extension host stops when the test entry's promise does.
 * Without `$GWS_SEED_FILE` nothing is seeded.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ConversationStore } from '../../src/chat/history/core/store';
import type { Conversation } from '../../src/shared/protocol';
import type { Services } from '../../src/platform/services';

export async function run(): Promise<void> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'gateway-studio');
  if (!ext) throw new Error('the extension under development is not loaded');
  const services = (await ext.activate()) as Services;
  if (!process.env.GWS_SEED_FILE) {
    console.log('GWS-SEED-LOADED 0');
    return new Promise<never>(() => undefined);
  }
  const conv = JSON.parse(readFileSync(process.env.GWS_SEED_FILE ?? '', 'utf8')) as Conversation;
  const store = new ConversationStore(services.context.workspaceState);
  if (store.activeId === conv.id) {
    console.log(`GWS-SEED-LOADED ${store.load(conv.id)?.messages.length ?? 0}`);
  } else {
    await store.save(conv);
    await store.setActive(conv.id);
    console.log('GWS-SEED-STORED');
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
  }
  await new Promise<never>(() => undefined);
}
