/**
 * What the video tools (the `vscode.lm` tools and the chat panel's tools) say to a model and to
 * the person confirming: the rules of each model, the confirmation, a task's status, the
 * meaning of a failure. Plain text without VS Code, so plain-node tests read exactly what a model
 * reads; the ui layer only wraps it in VS Code objects.
 */
import {
  KNOWN_VIDEO_MODELS,
  rulesFor,
  type VideoCreateRequest,
  type VideoRuleIssue,
} from '../../../api/video/videoRules';
import { failureMeaning } from '../../jobs/core/errorText';
import type { VideoTaskRecord } from '../../jobs/core/record';

/** The rules of the models spec 2.4 describes, one paragraph each (the tools' model description). */
export function modelRulesText(): string {
  return KNOWN_VIDEO_MODELS.map((m) => {
    const r = rulesFor(m);
    const refs =
      r.minImages === r.maxImages ? `exactly ${r.minImages} reference image` : `0 to ${r.maxImages} reference images`;
    const secs =
      `seconds 1-${r.maxSeconds} (suggested ${r.suggestedSeconds.join(', ')})` +
      (r.maxSecondsMulti
        ? `; with several references at most ${r.maxSecondsMulti} (suggested ${r.suggestedSecondsMulti.join(', ')})`
        : '');
    return `${m}: ${r.textToVideo ? 'text-to-video or image-to-video' : 'image-to-video only (no text-to-video)'}; ${refs}; ${secs}; aspect ratios ${r.aspectRatios.join(', ')}; resolutions ${r.resolutions.join(' or ')}.`;
  }).join(' ');
}

/**
 * The generate tool's description for the model; with the catalog's families (./catalogText.ts)
 * it is `modelDescription` in package.json, which the chat's copy reads at run time (the catalog
 * stays out of the code loaded at activation).
 */
export function generateToolDescription(catalogText = ''): string {
  return [
    'Generates a video with the Gateway Studio gateway (a billed action: the user confirms each call).',
    'It starts an asynchronous task and returns at once with the task id, its status and the workspace path the MP4 will be saved to; check it later with the video status tool.',
    'images are reference images: workspace-relative paths of PNG, JPEG, WebP, GIF or BMP files, or public HTTPS URLs.',
    `Model rules: ${modelRulesText()}`,
    ...(catalogText ? [catalogText] : []),
    "Leave out model, seconds, aspectRatio and resolution to use the user's settings. A request that breaks a rule is not sent: the result names each broken rule so you can fix the input and call again.",
  ].join(' ');
}

export function statusToolDescription(): string {
  return 'Reports Gateway Studio video tasks: status, progress, failure reason and the workspace path of the saved MP4. Give id (the task id the generate tool returned) for one task, or leave it out for the latest tasks. Never creates or re-sends a task.';
}

/** The issues of a refused request, one line each with its rule, for a model to act on. */
export function rulesResult(issues: readonly VideoRuleIssue[]): string {
  return [
    'The video request was not sent: it breaks these rules (fix the input and call again).',
    ...issues.map((i) => `- ${i.rule} (${i.field}): ${i.message}`),
  ].join('\n');
}

/** The confirmation shown before a billed creation: model, duration, resolution, references. */
export function confirmationText(
  req: VideoCreateRequest,
  imageLabels: readonly string[],
  /** The price line ("Price: about ¥0.80: 4 s, 720p, …", or why it is unknown). */
  price?: string,
): { title: string; message: string } {
  const lines = [
    `Model: ${req.model}`,
    `Duration: ${req.seconds ?? 'model default'} s`,
    `Resolution: ${req.resolution ?? 'model default'}`,
    `Aspect ratio: ${req.aspect_ratio ?? 'model default'}`,
    `Reference images: ${imageLabels.length ? imageLabels.join(', ') : 'none (text to video)'}`,
    `Prompt: ${req.prompt}`,
    ...(price ? [price] : []),
    '',
    'This is billed to your gateway account.',
  ];
  return {
    title: `Generate a ${req.seconds ?? ''}${req.seconds ? ' s ' : ''}video with ${req.model}?`.replace(/\s+/g, ' '),
    message: lines.join('\n'),
  };
}

/** One task as the status tool reports it. `relPath` turns a saved file into a workspace path. */
export function taskStatusText(r: VideoTaskRecord, relPath: (file: string) => string): string {
  const lines = [
    `Task ${r.videoId ?? `(local ${r.key}, not created on the gateway yet)`}`,
    `  status: ${r.state}${r.status ? ` (gateway: ${r.status})` : ''}`,
    `  progress: ${r.progress !== undefined ? `${Math.round(r.progress)}%` : 'unknown'}`,
    `  model: ${r.request.model || 'unknown'}; prompt: ${r.request.prompt}`,
  ];
  const why = failureMeaning(r);
  if (why) lines.push(`  failure: ${why}`);
  if (r.file && r.state === 'saved') lines.push(`  file: ${relPath(r.file)}`);
  if (r.state === 'timed_out' || r.state === 'paused')
    lines.push('  the task may still be running on the gateway; it was not submitted again. Check again later.');
  return lines.join('\n');
}

/** The generate tool's answer once the creation request went out (or failed). */
export function startedText(
  r: VideoTaskRecord,
  landing: string | undefined,
  relPath: (file: string) => string,
): string {
  if (r.state === 'error' || r.state === 'failed') {
    return `The video task could not be created. ${failureMeaning(r) ?? ''}`.trim();
  }
  const id = r.videoId ?? r.key;
  return [
    `Started video task ${id} (status: ${r.status ?? r.state}, progress ${Math.round(r.progress ?? 0)}%).`,
    landing
      ? `When it completes the MP4 is saved to ${relPath(landing)}.`
      : 'When it completes the MP4 is saved to the workspace videos folder.',
    `It runs in the background (shown in the status bar and the video gallery). Check it later with the video status tool and id "${id}"; do not start it again.`,
    ...(r.warnings.length ? [`Note: ${r.warnings.join(' ')}`] : []),
  ].join(' ');
}
