import * as vscode from 'vscode';
import { createLogger } from './platform/log';
import { configureCoreL10n } from './platform/l10n';
import { ApiKeyStore } from './platform/secrets';
import { GatewayOrigins } from './platform/gatewayOrigins';
import { GatewayProfiles } from './platform/profiles';
import type { Services } from './platform/services';
import { registerKeyCommands } from './platform/keyCommands';
import { registerProfiles } from './profiles/vscode/register';
import { registerConnectionCommands } from './connection/check/vscode/register';
import { registerVideo } from './video/vscode/register';
import { registerImages } from './images/vscode/register';
import { registerChat } from './chat/vscode/register';
import { registerLanguageModels, registerMcpServer } from './lm/vscode/register';
import { registerScm } from './scm/vscode/register';
import { registerCompletion } from './completion/vscode/register';
import { registerWalkthrough, type WalkthroughApi } from './platform/walkthrough';
import { logSettingProblems } from './platform/settings';
import { trackActiveEditor } from './platform/activeEditor';
import { activationLine, activationTiming } from './platform/activationTime';
import { UsageEvents } from './platform/usageEvents';
import { AnswerCosts } from './platform/answerCosts';
import { ModelRouting } from './platform/modelRouting';

/** Builds the shared services and lets each feature register itself. Nothing else. */
export function activate(context: vscode.ExtensionContext): Services & { walkthrough: WalkthroughApi } {
  const started = performance.now();
  configureCoreL10n();
  const log = createLogger(context);
  const profiles = new GatewayProfiles(context.globalState, context.secrets, log);
  const keys = new ApiKeyStore(context.secrets, () => profiles.activeSlot());
  context.subscriptions.push(
    profiles,
    keys,
    profiles.onDidChange(() => keys.switched()),
  );
  context.subscriptions.push(logSettingProblems(log), trackActiveEditor());
  // Each feature gets the same services: the only way features reach each other.
  const services: Services = {
    context,
    log,
    keys,
    origins: new GatewayOrigins(context.globalState, log),
    profiles,
    usage: new UsageEvents(log),
    answerCosts: new AnswerCosts(log),
    mediaSpend: { chargeListeners: new Set() },
    modelRouting: new ModelRouting(context, log),
    chatTools: [],
    media: {},
  };
  void profiles.migrate(String(context.extension.packageJSON.version));

  registerKeyCommands(services);
  registerProfiles(services);
  registerConnectionCommands(services);
  // Video adds its tools to services.chatTools before the chat, which reads them when it loads.
  registerVideo(services);
  registerImages(services);
  registerChat(services);
  registerLanguageModels(services);
  registerMcpServer(services);
  registerScm(services);
  registerCompletion(services);
  context.subscriptions.push(vscode.commands.registerCommand('gatewayStudio.showLog', () => log.show()));

  const walkthrough = registerWalkthrough(services);
  // The balance and spend load after activation, from their own chunk.
  void import('./account/vscode/register')
    .then((m) => context.subscriptions.push(m.registerAccount(services)))
    .catch((e: unknown) => log.warn(`The account feature did not load: ${e instanceof Error ? e.message : String(e)}`));

  log.info(
    `Gateway Studio ${String(context.extension.packageJSON.version)} activated; ${activationLine(activationTiming(context.extension.id, started))}`,
  );
  return { ...services, walkthrough };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
