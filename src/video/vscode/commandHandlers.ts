// The work of the video commands (./commands), loaded when one first runs.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { VideoCreateRequest } from '../../api/video/videoRules';
import { assertVideoId } from '../../api/video/videoStatus';
import { showGatewayError } from '../../platform/gateway';
import type { Services } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import type { VideoFeature } from '../base/vscode/feature';
import { imageLabel, imageToDataUrl } from '../base/vscode/images';
import { SpendDeclined, VideoSpend } from '../base/vscode/spend';
import type { VideoClients } from './clients';
import type { GenerateArgs } from './commands';

/** Starts the task; its key, or undefined when it did not start (the user was told why). */
async function submit(
  s: Services,
  feature: VideoFeature,
  request: VideoCreateRequest,
  imageLabels: string[],
): Promise<string | undefined> {
  try {
    const record = await feature.start(request, imageLabels);
    if (record.warnings.length) void vscode.window.showWarningMessage(record.warnings.join(' '));
    return record.key;
  } catch (err) {
    if (!(err instanceof SpendDeclined)) showGatewayError(s, err);
    return undefined;
  }
}

/** The command's arguments fill the request; the settings and the profile's model the rest. */
export async function generateFromArgs(
  s: Services,
  feature: VideoFeature,
  args: GenerateArgs,
): Promise<string | undefined> {
  const settings = readSettings().video;
  try {
    const files = (args.imageFiles ?? []).map((f) => (path.isAbsolute(f) ? vscode.Uri.file(f) : workspaceUri(f)));
    const dataUrls = await Promise.all(files.map((u) => imageToDataUrl(u)));
    const urls = [...(args.image_urls ?? []), ...dataUrls];
    const request: VideoCreateRequest = {
      model: args.model ?? feature.videoModel(),
      prompt: args.prompt,
      seconds: args.seconds ?? settings.seconds,
      aspect_ratio: args.aspect_ratio ?? settings.aspectRatio,
      resolution: args.resolution ?? settings.resolution,
    };
    if (urls.length) request.image_urls = urls;
    return await submit(s, feature, request, [...(args.image_urls ?? []), ...files.map(imageLabel)]);
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
}

/** The quick-input wizard (loaded on first use), starting from the images chosen in the explorer. */
export async function generateWithWizard(
  s: Services,
  feature: VideoFeature,
  clients: VideoClients,
  spend: VideoSpend,
  preselected: vscode.Uri[],
): Promise<string | undefined> {
  let result;
  try {
    const { runVideoWizard } = await import('../wizard/vscode/wizard');
    const { mediaCatalog } = await import('../../platform/mediaCatalog');
    result = await runVideoWizard(
      { ...readSettings(), videoModel: feature.videoModel() },
      async () => (await clients.client()).listVideoModels(),
      preselected,
      async (r) => VideoSpend.priceLine(await spend.quote(r)),
      mediaCatalog(s.log),
    );
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
  if (!result) return undefined;
  return submit(s, feature, result.request, result.imageLabels);
}

/** Follows a task by its id (pasted, or asked for): checked, downloaded when done, never submitted again. */
export async function checkTask(
  s: Services,
  feature: VideoFeature,
  clients: VideoClients,
  pasted: string | undefined,
): Promise<string | undefined> {
  const id = pasted ?? (await askVideoId());
  if (id === undefined || (pasted === undefined && !id.trim())) return undefined;
  try {
    await clients.client();
    const { record } = await feature.manager.track(id);
    return record.key;
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
}

function askVideoId(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Gateway Studio: Check Video Task'),
    prompt: vscode.l10n.t(
      'Paste the video id from the creation response (kept after a timeout). It is checked, and downloaded when completed; it is never submitted again.',
    ),
    placeHolder: 'video_svc_v1_…',
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (v.trim() === '') return undefined;
      try {
        assertVideoId(v);
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
  });
}

function workspaceUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(vscode.l10n.t('{0} is a relative path but no folder is open.', rel));
  return vscode.Uri.joinPath(folder.uri, rel);
}
