import type * as vscode from 'vscode';
import type { FeatureTool } from '../contracts/featureTools';
import type { MediaLibraries } from '../contracts/mediaImages';
import type { AnswerCosts } from './answerCosts';
import type { GatewayOrigins } from './gatewayOrigins';
import type { Logger } from './log';
import type { ModelRouting } from './modelRouting';
import type { GatewayProfiles } from './profiles';
import type { ApiKeyStore } from './secrets';
import type { UsageEvents } from './usageEvents';
import type { MediaSpendBridge } from './mediaSpend';

/**
 * What every feature gets at registration, built once by `extension.ts`: the one way features
 * reach each other (they may not import each other). One object owns the lifetime: features push
 * their disposables onto `context.subscriptions`. A copy of it (the exports of activate) holds
 * the same services.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: Logger;
  readonly keys: ApiKeyStore;
  /** Whether the key may go to a workspace-set gateway address (asks once per origin). */
  readonly origins: GatewayOrigins;
  /** The gateway profiles and the active one (`keys` is the active profile's key). */
  readonly profiles: GatewayProfiles;
  /** What the gateway billed: the clients and video emit, the account listens. */
  readonly usage: UsageEvents;
  /** The price of an ended answer: the account offers it, the chat asks. */
  readonly answerCosts: AnswerCosts;
  /** Quotes before a video submit and charges after a task: the account offers them, video asks. */
  readonly mediaSpend: MediaSpendBridge;
  /** The per-model settings and learnt protocols every gateway client is built with. */
  readonly modelRouting: ModelRouting;
  /** The tools other features give the chat's agent (video's): added at registration, read when the chat loads. */
  readonly chatTools: FeatureTool[];
  /** Saved media other features offer (the images feature's library): filled at registration. */
  readonly media: MediaLibraries;
}
