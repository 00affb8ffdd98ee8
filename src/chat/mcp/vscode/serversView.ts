/**
 * Gateway Studio: MCP Servers: each server's state (starting, running, failed with its stderr's
 * last lines, stopped, not started and why), its counts of tools, resources and prompts, and what
 * can be done with it (start, stop, restart, show its log, let its read-only tools run without
 * asking). A quick pick: no webview, nothing on the chat page.
 */
import * as vscode from 'vscode';
import type { McpServerEntry } from '../core/pool';
import type { McpHost } from './mcpHost';

type Action = 'start' | 'stop' | 'restart' | 'log' | 'readOnlyOn' | 'readOnlyOff';

function stateLine(e: McpServerEntry): string {
  const c = e.connection;
  switch (c?.state) {
    case 'running':
      return vscode.l10n.t(
        'running · {0} tools · {1} resources · {2} prompts',
        c.tools.length,
        c.resources.length + c.templates.length,
        c.prompts.length,
      );
    case 'starting':
      return vscode.l10n.t('starting');
    case 'failed':
      return vscode.l10n.t('failed: {0}', c.error ?? '');
    default:
      return e.blocked ? vscode.l10n.t('not started: {0}', e.blocked) : vscode.l10n.t('stopped');
  }
}

export async function showServers(host: McpHost): Promise<void> {
  await host.reload();
  const entries = host.pool.list();
  if (entries.length === 0) {
    const open = vscode.l10n.t('Open settings');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No MCP servers are defined: add them to .mcp.json, .vscode/mcp.json or the gatewayStudio.mcp.servers setting.',
      ),
      open,
    );
    if (pick === open)
      await vscode.commands.executeCommand('workbench.action.openSettings', 'gatewayStudio.mcp.servers');
    return;
  }
  type Item = vscode.QuickPickItem & { entry: McpServerEntry };
  const items: Item[] = entries.map((entry) => ({
    entry,
    label: entry.def.name,
    description: stateLine(entry),
    detail:
      entry.connection?.state === 'failed' && entry.connection.stderrTail
        ? entry.connection.stderrTail.trim().split(/\r?\n/).slice(-3).join(' ⏎ ')
        : entry.def.scope === 'user'
          ? vscode.l10n.t('your settings')
          : vscode.workspace.asRelativePath(entry.def.source),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Gateway Studio: MCP servers'),
    placeHolder: vscode.l10n.t('Pick a server to start, stop, restart or see its log'),
  });
  if (picked) await act(host, picked.entry);
}

async function act(host: McpHost, e: McpServerEntry): Promise<void> {
  const running = e.connection?.state === 'running' || e.connection?.state === 'starting';
  const ro = host.readOnlyTrusted(e.def.name);
  const actions: (vscode.QuickPickItem & { action: Action })[] = [
    ...(running
      ? [
          { action: 'stop' as const, label: vscode.l10n.t('Stop') },
          { action: 'restart' as const, label: vscode.l10n.t('Restart') },
        ]
      : [{ action: 'start' as const, label: vscode.l10n.t('Start') }]),
    { action: 'log', label: vscode.l10n.t('Show log') },
    ro
      ? { action: 'readOnlyOff', label: vscode.l10n.t('Ask before its read-only tools run') }
      : {
          action: 'readOnlyOn',
          label: vscode.l10n.t('Let its read-only tools run without asking'),
          detail: vscode.l10n.t('Tools the server marks readOnlyHint; the server says so itself.'),
        },
  ];
  const pick = await vscode.window.showQuickPick(actions, { title: e.def.name });
  switch (pick?.action) {
    case 'start':
      return host.pool.start(e.def.name);
    case 'stop':
      return host.pool.stop(e.def.name);
    case 'restart':
      return host.pool.restart(e.def.name);
    case 'log':
      return host.output.show();
    case 'readOnlyOn':
      return host.setReadOnlyTrusted(e.def.name, true);
    case 'readOnlyOff':
      return host.setReadOnlyTrusted(e.def.name, false);
    default:
      return undefined;
  }
}
