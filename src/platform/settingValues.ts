import { readOverrides, type ModelOverride } from '../api/models/modelLimits';
import { DEFAULT_CHAT_PARAMS as unset } from '../shared/chatParams';

/**
 * Pure helpers for reading settings (no `vscode` here, so they are testable in plain node).
 * package.json's `minimum`/`maximum` only guide the settings editor: a hand-edited settings.json
 * can hold `0`, a negative number or a string, which would poll in a tight loop or make every
 * request time out at once.
 */

/**
 * `value` as a number within `[min, max]` (rounded when `integer`); `fallback` when it is not a
 * finite number (a numeric string counts, as JSON users sometimes quote numbers).
 */
export function boundedNumber(value: unknown, fallback: number, min: number, max: number, integer = false): number {
  let n = numberIn(value);
  if (!Number.isFinite(n)) return fallback;
  if (integer) n = Math.round(n);
  return Math.min(max, Math.max(min, n));
}

/** Every setting of `contributes.configuration`, typed, with the defaults of package.json. */
export interface Settings {
  // No baseUrl/videoBaseUrl: the gateway address is read only through `GatewayOrigins`, which
  // asks before a workspace-set address gets the key.
  chatModel: string;
  videoModel: string;
  /** `utilityModel`: the model for small tasks (commit messages); empty means the chat model. */
  utilityModel: string;
  chat: {
    /** The user's own `chat.systemPrompt` (a workspace's is a rules chip, not this). */
    systemPrompt: string;
    /** `chat.environmentContext`: the environment section of the system prompt. */
    environmentContext: boolean;
    stream: boolean;
    temperature: number | null;
    topP: number | null;
    maxTokens: number | null;
    stop: string[];
    presencePenalty: number | null;
    frequencyPenalty: number | null;
    responseFormat: 'text' | 'json_object';
    user: string;
    maxImageMegabytes: number;
    /** Megabytes all conversation images of the workspace may take on disk. */
    imageStorageMegabytes: number;
  };
  tools: {
    maxRounds: number;
    /** `tools.commandTimeoutSeconds`: run_command stops a command after this long. */
    commandTimeoutSeconds: number;
  };
  /** `gatewayStudio.models.overrides`: per model id, its window, output limit, images and tools (checked). */
  modelOverrides: Record<string, ModelOverride>;
  video: {
    seconds: number;
    aspectRatio: string;
    resolution: string;
    outputFolder: string;
    pollIntervalSeconds: number;
    pollLimit: number;
  };
  network: {
    requestTimeoutSeconds: number;
    streamIdleTimeoutSeconds: number;
    maxRetries: number;
  };
}

/**
 * Every setting from `get` (a configuration section's reader), with the defaults of package.json.
 * A number setting that holds no number (a hand-edited `"abc"`) gets its default, and `report`
 * hears which one, so the log says why the setting seems ignored.
 */
export function settingsFrom(get: (key: string) => unknown, report: (problem: string) => void): Settings {
  const g = <T>(key: string, fallback: T): T => (get(key) as T | undefined) ?? fallback;
  // Ranges as in package.json; see the top of this file for why they are enforced here too.
  const n = (key: string, fallback: number, min: number, max: number, integer = false): number => {
    const raw = get(key);
    const value = boundedNumber(raw, fallback, min, max, integer);
    if (raw !== undefined && raw !== null && !Number.isFinite(numberIn(raw)))
      report(`Setting gatewayStudio.${key} is ${JSON.stringify(raw)}, not a number: using the default ${fallback}.`);
    return value;
  };
  return {
    chatModel: g('chatModel', ''),
    videoModel: g('videoModel', 'vendor-image-video'),
    utilityModel: g('utilityModel', ''),
    chat: {
      systemPrompt: text(get('chat.systemPrompt')),
      environmentContext: g('chat.environmentContext', true),
      stream: g('chat.stream', unset.stream),
      temperature: g('chat.temperature', unset.temperature),
      topP: g('chat.topP', unset.top_p),
      maxTokens: g('chat.maxTokens', unset.max_tokens),
      stop: g('chat.stop', [...unset.stop]),
      presencePenalty: g('chat.presencePenalty', unset.presence_penalty),
      frequencyPenalty: g('chat.frequencyPenalty', unset.frequency_penalty),
      responseFormat: g('chat.responseFormat', unset.response_format),
      user: g('chat.user', unset.user),
      maxImageMegabytes: n('chat.maxImageMegabytes', 5, 0.1, 20),
      imageStorageMegabytes: n('chat.imageStorageMegabytes', 200, 1, 100_000),
    },
    tools: {
      maxRounds: n('tools.maxRounds', 10, 1, 100, true),
      commandTimeoutSeconds: n('tools.commandTimeoutSeconds', 120, 1, 3600, true),
    },
    modelOverrides: readOverrides(get('models.overrides')),
    video: {
      seconds: g('video.seconds', 4),
      aspectRatio: g('video.aspectRatio', '16:9'),
      resolution: g('video.resolution', '720p'),
      outputFolder: g('video.outputFolder', 'videos'),
      pollIntervalSeconds: n('video.pollIntervalSeconds', 5, 0.1, 600),
      pollLimit: n('video.pollLimit', 60, 1, 10000, true),
    },
    network: {
      requestTimeoutSeconds: n('network.requestTimeoutSeconds', 60, 1, 600),
      streamIdleTimeoutSeconds: n('network.streamIdleTimeoutSeconds', 120, 5, 3600),
      maxRetries: n('network.maxRetries', 2, 0, 10, true),
    },
  };
}

/** `value` when it is text, else empty (a hand-edited number or object is no prompt). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The number `value` holds (a number or a numeric string), else NaN. */
function numberIn(value: unknown): number {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== ''
      ? Number(value)
      : Number.NaN;
}
