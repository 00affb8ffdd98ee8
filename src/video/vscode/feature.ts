import type * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import type { VideoFeature } from '../base/vscode/feature';
import { SpendDeclined, type VideoSpend } from '../base/vscode/spend';
import type { VideoJobManager } from '../jobs/core/manager';
import type { VideoTaskRecord } from '../jobs/core/record';
import { VideoAgent } from '../tools/vscode/agent';
import type { VideoClients } from './clients';
import type { OutputFolders } from './outputFolders';

export interface FeatureParts {
  manager: VideoJobManager;
  changed: vscode.EventEmitter<{ record: VideoTaskRecord; removed: boolean }>;
  clients: VideoClients;
  folders: OutputFolders;
  spend: VideoSpend;
}

/**
 * The video feature as its capabilities see it (src/video/base/vscode/feature.ts): every start,
 * whoever asks, is checked for a gateway, priced, asked about above the user's limit, then
 * submitted through the one manager.
 */
export function createVideoFeature(s: Services, p: FeatureParts): VideoFeature {
  const { manager, changed, spend } = p;
  const feature: VideoFeature = {
    manager,
    onDidChange: changed.event,
    outputDir: () => p.folders.outputDir(),
    quote: (request) => spend.quote(request),
    costOf: (key) => spend.costOf(key),
    confirmAgent: (action, quotes) => spend.confirmAgent(action, quotes),
    plan: (input) => agent.plan(input),
    // A profile's own video model (issue 22); Profile.videoModel is the setting when it has none.
    videoModel: () => s.profiles.active().videoModel,
    start: async (request, imageLabels, o) => {
      const profile = s.profiles.activeId();
      await p.clients.client(profile); // a missing base URL or key is reported before a task is recorded
      // Before anything is recorded or sent: a price above the user's limit asks first.
      const q = await spend.quote(request);
      if (!o?.priceConfirmed && !(await spend.confirm(q))) throw new SpendDeclined(q.line);
      const { record } = await manager.submit({ request, imageLabels, profile });
      void spend.noteQuote(record.key, q).then(() => {
        const now = manager.get(record.key);
        if (now) changed.fire({ record: now, removed: false });
      });
      s.log.info(`video task started: model ${request.model}, ${imageLabels.length} reference image(s)`);
      return record;
    },
  };
  const agent = new VideoAgent(feature);
  return feature;
}
