import * as path from 'node:path';
import { readSettings } from '../../../platform/settings';
import type { Services } from '../../../platform/services';
import { ConversationImageFiles } from '../core/conversationImages';

/**
 * Where conversation images live: the workspace's storage folder (global storage without a
 * folder), beside the checkpoints, under the limit of `gatewayStudio.chat.imageStorageMegabytes`.
 */
export function conversationImageFiles(s: Services): ConversationImageFiles {
  return new ConversationImageFiles({
    folder: path.join((s.context.storageUri ?? s.context.globalStorageUri).fsPath, 'chat-images'),
    limitBytes: () => readSettings().chat.imageStorageMegabytes * 1024 * 1024,
    warn: (m) => s.log.warn(m),
  });
}
