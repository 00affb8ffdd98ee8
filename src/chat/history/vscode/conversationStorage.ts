import * as path from 'node:path';
import type { Services } from '../../../platform/services';
import { FileStorage } from '../core/fileStorage';
import { isConversationStoreKey } from '../core/store';
import type { KeyValueStorage } from '../../conversation/core/contracts';

/**
 * Where conversations are kept: one file each in the workspace's storage folder, moved there from
 * `workspaceState` (where earlier versions kept them) in the background, key by key. A window
 * without a folder has no workspace storage folder of its own (global storage is shared by every
 * such window), so it keeps them in its `workspaceState` as before.
 */
export function conversationStorage(s: Services): KeyValueStorage {
  if (!s.context.storageUri) return s.context.workspaceState;
  const files = new FileStorage({
    folder: path.join(s.context.storageUri.fsPath, 'chat-conversations'),
    legacy: s.context.workspaceState,
    owns: isConversationStoreKey,
    warn: (m) => s.log.warn(m),
  });
  void files.migrate().then(
    (n) =>
      n > 0 &&
      s.log.info(`history: moved ${n} stored conversation record(s) out of workspace state into ${files.folder}`),
    (e: unknown) => s.log.warn(`history: moving conversations out of workspace state stopped: ${String(e)}`),
  );
  return files;
}
