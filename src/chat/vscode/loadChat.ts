/**
 * The chat's code, loaded when the chat is first shown or one of its commands first runs (a chunk
 * of its own, imported by ./register.ts): the controller, the tools with `run_subagent` and the web's, the
 * hooks and command rules, the MCP servers.
 */
import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { answering, failoverBackend } from '../failover/vscode/failover';
import { chatSubagentTool } from '../subagents/vscode/subagents';
import { registerTools } from '../tools/vscode/register';
import { ChatController } from './controller';
import { maxImageBytes } from './conversationRoutes';
import { webTools } from '../web/vscode/webTools';
import { lazyMcp } from './mcp';
import { lazyPolicies } from './policies';

export interface LoadedChat {
  controller: ChatController;
  manageTools: () => Promise<void>;
  mcp: { showServers(): Promise<void> };
}

export function loadChat(s: Services): LoadedChat {
  // Hooks and command rules: loaded on their first event, shared by the tools and the session.
  const policies = lazyPolicies(s, () => vscode.workspace.isTrusted);
  // MCP servers: their client loads and starts them in the background.
  const mcp = lazyMcp(
    s,
    () => vscode.workspace.isTrusted,
    () => ({ acceptsImages: controller.session.currentModel().info?.supportsImages, maxImageBytes: maxImageBytes() }),
  );
  const controller = new ChatController(s, {
    hooks: policies.session,
    sources: [...policies.sources, mcp.source],
    mcp: { mentions: mcp.mentions, slash: mcp.slash },
  });
  s.context.subscriptions.push(controller);
  const { session, caps } = controller;
  const subagents = chatSubagentTool(s, {
    shown: () => session.shown,
    currentModel: () => session.currentModel().id,
    modeFor: (m) => session.context.modeFor(m),
    agents: controller.agents,
    side: caps.side,
    postToolCall: (u) => controller.postToolCall(u),
    backend: (profile) => failoverBackend(s, profile),
    billedTo: answering,
  });
  const tools = registerTools(s, controller, s.chatTools, policies.gate, mcp, [subagents.tool, ...webTools(s)]);
  subagents.use(tools.nested);
  return { controller, manageTools: tools.manageTools, mcp };
}
