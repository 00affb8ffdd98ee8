import * as vscode from 'vscode';
import type { MediaJobSource } from '../../contracts/featureTools';
import type { VideoFeature } from '../base/vscode/feature';
import type { VideoGallery } from '../gallery/vscode/gallery';

const taskList = () => import('../base/vscode/taskList');

/** The video tasks as the chat's tool cards follow them (media jobs of kind `video`, shown like the gallery shows them). */
export function videoJobSource(feature: VideoFeature, gallery: VideoGallery): MediaJobSource {
  return {
    kind: 'video',
    watch: (key, listener) =>
      feature.onDidChange((e) => {
        if (e.record.key === key) listener();
      }),
    describe: async (key, asWebviewUri) => {
      const r = feature.manager.get(key);
      return r ? gallery.toTask(r, (u) => asWebviewUri(u.fsPath)) : undefined;
    },
    resourceRoots: () => gallery.mediaRoots().map((u) => u.fsPath),
    act: async (key, action) => {
      const file = feature.manager.get(key)?.file;
      if (!file) return;
      if (action === 'open') await (await taskList()).openVideo(file);
      else if (action === 'reveal') await (await taskList()).revealVideo(file);
      else await vscode.env.openExternal(vscode.Uri.file(file));
    },
  };
}
