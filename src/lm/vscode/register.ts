import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import type { LmModelInfo } from '../models/core/models';
import type { GatewayLanguageModels } from './provider';
import type { OurMcpServer } from '../mcpServer/vscode/server';

/** The vendor of `contributes.languageModelChatProviders` and of `vscode.lm.selectChatModels`. */
export const LM_VENDOR = 'gateway-studio';

/**
 * Stands in for {@link GatewayLanguageModels} until VS Code first asks for models, then loads it
 * (its own chunk, see esbuild.js) and passes every call on. Nothing is lost before the first ask:
 * the provider only announces list changes to a VS Code that has asked.
 */
class LanguageModelsOnFirstUse implements vscode.LanguageModelChatProvider<LmModelInfo>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private loading: Promise<GatewayLanguageModels> | undefined;

  constructor(private readonly s: Services) {}

  private provider(): Promise<GatewayLanguageModels> {
    return (this.loading ??= import('./provider').then(({ GatewayLanguageModels: Provider }) => {
      const p = new Provider(this.s);
      p.onDidChangeLanguageModelChatInformation(() => this.changed.fire());
      return p;
    }));
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<LmModelInfo[]> {
    return (await this.provider()).provideLanguageModelChatInformation(options, token);
  }

  async provideLanguageModelChatResponse(
    model: LmModelInfo,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    return (await this.provider()).provideLanguageModelChatResponse(model, messages, options, progress, token);
  }

  async provideTokenCount(model: LmModelInfo, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return (await this.provider()).provideTokenCount(model, text);
  }

  dispose(): void {
    this.changed.dispose();
    // A load still under way is disposed when it lands.
    void this.loading?.then((p) => p.dispose());
  }
}

/** Registers the provider for {@link LM_VENDOR}; VS Code versions without the API are skipped with a log line. */
export function registerLanguageModels(s: Services): void {
  const lm = vscode.lm as Partial<typeof vscode.lm>;
  if (typeof lm.registerLanguageModelChatProvider !== 'function') {
    s.log.info(
      'Language models: this VS Code has no language-model provider API; the gateway models are not offered to its model picker.',
    );
    return;
  }
  const provider = new LanguageModelsOnFirstUse(s);
  s.context.subscriptions.push(provider, lm.registerLanguageModelChatProvider(LM_VENDOR, provider));
}

/**
 * Our MCP server for other agents (src/lm/mcpServer), in VS Code's MCP registry: registered at
 * activation as VS Code asks, everything else in its own chunk; the server itself starts when VS
 * Code first resolves the definition, which is when an agent first needs it.
 */
export function registerMcpServer(s: Services): void {
  const lm = vscode.lm as Partial<typeof vscode.lm>;
  if (!lm.registerMcpServerDefinitionProvider) return;
  let server: Promise<OurMcpServer> | undefined;
  const load = () => (server ??= import('../mcpServer/vscode/server').then((m) => new m.OurMcpServer(s)));
  s.context.subscriptions.push(
    lm.registerMcpServerDefinitionProvider('gatewayStudio.mcpServer', {
      provideMcpServerDefinitions: async () => (await load()).definitions(),
      resolveMcpServerDefinition: async (d) => (await load()).resolve(d),
    }),
    vscode.commands.registerCommand('gatewayStudio.copyMcpServerConfig', async () => (await load()).copySnippet()),
  );
}
