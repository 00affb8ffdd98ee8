/**
 * Test entry (`extensionTestsPath`) of bench/webview-latency.bench.ts, run inside the real
 * extension host: stores the conversation in `$GWS_SEED_FILE` through the extension's own
 * ConversationStore (its workspaceState) as the active one, then reloads the window so the
 * chat starts again from storage. After the reload it only says that the conversation is there.
 * It never settles: the extension host stops when the test entry's promise does.
 *
 * It also holds the hub's test-only delta switch (src/chat/panel/core/deltaBatcher.ts): the
 * bench writes `{ policy, report }` to `$GWS_BENCH_CONTROL`; a new `report` number prints the
 * delay the host added to each delta since the last report (`GWS-DELTA-DELAYS <json>`).
 * Without `$GWS_SEED_FILE` nothing is seeded.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ConversationStore } from '../../src/chat/history/core/store';
import type { Conversation } from '../../src/shared/protocol';
import type { Services } from '../../src/platform/services';
import type { DeltaBenchHook, DeltaPolicy } from '../../src/chat/panel/core/deltaBatcher';

function holdDeltaSwitch(controlFile: string): void {
  const delays: number[] = [];
  const hook: DeltaBenchHook = {
    policy: 'leading',
    onPost: (arrivals, postedAt) => {
      for (const a of arrivals) delays.push(postedAt - a);
    },
  };
  (globalThis as Record<symbol, unknown>)[Symbol.for('gatewayStudio.deltaBench')] = hook;
  let reported = 0;
  setInterval(() => {
    let control: { policy?: DeltaPolicy; report?: number };
    try {
      control = JSON.parse(readFileSync(controlFile, 'utf8')) as typeof control;
    } catch {
      return;
    }
    if (control.policy) hook.policy = control.policy;
    if (control.report !== undefined && control.report !== reported) {
      reported = control.report;
      console.log(`GWS-DELTA-DELAYS ${reported} ${JSON.stringify(delays.map((d) => Math.round(d * 100) / 100))}`);
      delays.length = 0;
    }
  }, 20);
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'gateway-studio');
  if (!ext) throw new Error('the extension under development is not loaded');
  const services = (await ext.activate()) as Services;
  if (process.env.GWS_BENCH_CONTROL) holdDeltaSwitch(process.env.GWS_BENCH_CONTROL);
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
