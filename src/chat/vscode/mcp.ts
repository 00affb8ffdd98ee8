/**
 * The chat's MCP client (`src/chat/mcp`) as the tool runner and the customizations list see it: a
 * small stand-in that loads the client (the SDK is its own chunk) right after the chat loads and
 * starts the servers in the background; until then it offers no tools, so no request waits.
 */
import * as vscode from 'vscode';
import type { CustomizationSourceProvider } from '../../contracts/customizations';
import type { Services } from '../../platform/services';
import type { Tool } from '../tools/core/runner';
import type { ChatExtraTools } from '../tools/vscode/register';
import type { ResultImageOptions } from '../mcp/core/toolResult';
import type { McpHost } from '../mcp/vscode/mcpHost';
import type { ExtraMentions } from '../mentions/vscode/picker';
import type { ExtraSlash } from '../slash/vscode/slashCommands';

export interface ChatMcp extends ChatExtraTools {
  source: CustomizationSourceProvider;
  showServers(): Promise<void>;
  /** Resources as @-mentions, prompts as `/server.prompt`: none until the client has loaded. */
  mentions: ExtraMentions;
  slash: ExtraSlash;
}

/** `images`: whether the conversation's model takes images now, and the chat's limit (for tool results). */
export function lazyMcp(s: Services, isTrusted: () => boolean, images: () => ResultImageOptions): ChatMcp {
  const changed = new vscode.EventEmitter<void>();
  let host: McpHost | undefined;
  const loading = import('../mcp/vscode/mcpHost').then((m) => {
    host = new m.McpHost(s, { isTrusted, images, onToolsChanged: () => changed.fire() });
    s.context.subscriptions.push(host, changed);
    void host.reload();
    return host;
  });
  loading.catch((e: unknown) => s.log.error(`MCP client failed to load: ${String(e)}`));
  return {
    tools: (taken: ReadonlySet<string>): Tool[] => host?.tools(taken) ?? [],
    trusted: (key) => host?.trusted(key) ?? false,
    onDidChange: changed.event,
    showServers: async () => (await loading).showServers(),
    source: { kind: 'mcpServer', list: async () => (await loading).list() },
    mentions: {
      rows: () => host?.context.mentionRows() ?? [],
      resolve: async (item, o, images) => (await loading).context.resolveMention(item, o, images),
    },
    slash: {
      items: () => host?.context.slashItems() ?? [],
      expand: (name, rest) => host?.context.expand(name, rest) ?? Promise.resolve(undefined),
    },
  };
}
