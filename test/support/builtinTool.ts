import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeKit, type BuiltinKit, type BuiltinToolOptions } from '../../src/chat/tools/core/builtin/kit';
import type { ToolHost } from '../../src/chat/tools/core/host';
import type { PreparedCall, Tool, ToolCallContext } from '../../src/chat/tools/core/runner';
import { nodeToolHost } from './nodeToolHost';

/** A temp workspace folder with `files` (path -> text) written into it; `dispose` removes it. */
export async function tempWorkspace(
  files: Record<string, string> = {},
): Promise<{ root: string; dispose(): Promise<void> }> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-builtin-')));
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return { root, dispose: () => fs.rm(root, { recursive: true, force: true }) };
}

/** The kit of the built-in tools over the node host of `root`, with `extra` host parts (selection, diagnostics). */
export function kitFor(root: string, extra: Partial<ToolHost> = {}, opts: BuiltinToolOptions = {}): BuiltinKit {
  return makeKit({ ...nodeToolHost([{ name: 'ws', path: root }], { commandTimeoutMs: 5000 }), ...extra }, opts);
}

export const callCtx = (): ToolCallContext => ({
  signal: new AbortController().signal,
  conversationId: 'c1',
  callId: 'call_1',
  answerId: 'a1',
});

/** Prepares a call as the runner does before asking; its refusal (a ToolError) rejects. */
export function prepare(tool: Tool, args: Record<string, unknown>): Promise<PreparedCall> {
  return tool.prepare(args, callCtx());
}

/** Prepares and runs a call as if approved; returns what the model reads. */
export async function run(tool: Tool, args: Record<string, unknown>): Promise<string> {
  const prepared = await prepare(tool, args);
  try {
    return (await prepared.run(callCtx())).content;
  } finally {
    prepared.dispose?.();
  }
}
