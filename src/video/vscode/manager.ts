import { getGatewayClient } from '../../platform/gateway';
import { DEFAULT_PROFILE_ID } from '../../platform/profiles';
import type { Services } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import { setStepContext } from '../../platform/walkthrough';
import type { VideoRunEnd } from '../jobs/core/job';
import { VideoJobManager } from '../jobs/core/manager';
import type { VideoTaskRecord } from '../jobs/core/record';
import { WorkspaceTaskStore } from '../jobs/vscode/store';
import type { VideoClients } from './clients';
import type { OutputFolders } from './outputFolders';

// The task list and its notifications load on first use: none is needed at activation.
const taskList = () => import('../base/vscode/taskList');

/**
 * The one job manager of the window: its records in the workspace's state, its settings read at
 * each use, its ends reported to the account feature (usage) and the user (notifications).
 * `changed` hears every stored change and removal.
 */
export function createVideoManager(
  s: Services,
  clients: VideoClients,
  folders: OutputFolders,
  changed: (r: VideoTaskRecord, removed: boolean) => void,
): VideoJobManager {
  const store = new WorkspaceTaskStore(s.context.workspaceState);
  const unreadable = store.unreadable();
  // Kept as they are (a newer version's records): said once so a missing task can be explained.
  if (unreadable.length)
    s.log.info(
      `keeping ${unreadable.length} video task record(s) this version cannot read: ${unreadable.map((u) => u.key).join(', ')}`,
    );
  const manager: VideoJobManager = new VideoJobManager(
    {
      api: clients.apiFor(undefined),
      apiFor: clients.apiFor,
      profile: () => s.profiles.activeId(),
      store,
      pollIntervalMs: () => readSettings().video.pollIntervalSeconds * 1000,
      pollLimit: () => readSettings().video.pollLimit,
      // The watchdog's timeout of every download: a .part silent for longer is no live download.
      idleTimeoutMs: () => readSettings().network.streamIdleTimeoutSeconds * 1000,
      destination: () => folders.destination(),
    },
    {
      onChange: (r, removed) => {
        s.log.debug(
          `video task ${r.videoId ?? r.key}: ${removed ? 'removed' : `${r.state}${r.progress !== undefined ? ` ${r.progress}%` : ''}`}`,
        );
        changed(r, removed);
        // The walkthrough's "Generate a video" step completes once the gateway accepted a task.
        if (!removed && r.videoId) setStepContext('videoStarted', true);
      },
      onEnd: (r, end) => {
        reportUsage(s, r, end);
        void taskList().then((t) => t.notifyEnd(s, manager, r, end));
      },
    },
  );
  s.context.subscriptions.push({ dispose: () => manager.dispose() });
  stopTasksOfRemovedProfiles(s, manager);
  return manager;
}

/** Only a task the gateway accepted can have been charged; a pause ends nothing. */
function reportUsage(s: Services, r: VideoTaskRecord, end: VideoRunEnd): void {
  if (end === 'paused' || !r.videoId) return;
  void getGatewayClient(s, 'video', r.profile ?? DEFAULT_PROFILE_ID).then(
    (c) =>
      s.usage.emit({
        kind: 'clip',
        gateway: c.http.baseUrl,
        videoId: r.videoId,
        model: r.request.model,
        seconds: r.request.seconds,
        resolution: r.request.resolution,
        end,
      }),
    () => undefined,
  );
}

/**
 * Removing a profile asks first when tasks still run on it (src/profiles); once it is removed
 * they stop at once, as the question said (a poll round would otherwise go on with its client
 * and the removed key); Resume finishes them after the profile is added again. Only once the
 * list is read: before that it holds Default alone.
 */
function stopTasksOfRemovedProfiles(s: Services, manager: VideoJobManager): void {
  s.context.subscriptions.push(
    s.profiles.registerUser((id) =>
      manager.runningOn(id, id === DEFAULT_PROFILE_ID).map((r) => r.request.prompt.slice(0, 40) || r.videoId || r.key),
    ),
    s.profiles.onDidChange(() =>
      s.profiles.ready().then(() => {
        for (const r of manager.list())
          if (r.profile !== undefined && manager.isRunning(r.key) && !s.profiles.get(r.profile))
            void manager.pause(r.key).then(
              () => s.log.info(`video task ${r.videoId ?? r.key} stopped: its profile was removed`),
              (e: unknown) => s.log.warn(`video task ${r.key} did not stop: ${String(e)}`),
            );
      }),
    ),
  );
}
