import type * as vscode from 'vscode';
import type { GatewayOrigins } from './gatewayOrigins';
import type { Logger } from './log';
import type { GatewayProfiles } from './profiles';
import type { ApiKeyStore } from './secrets';

/**
 * What every feature gets at activation. One object owns the lifetime: features push their
 * disposables onto `context.subscriptions`.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: Logger;
  readonly keys: ApiKeyStore;
  /** Whether the key may go to a workspace-set gateway address (asks once per origin). */
  readonly origins: GatewayOrigins;
  /** The gateway profiles and the active one (`keys` is the active profile's key). */
  readonly profiles: GatewayProfiles;
}
