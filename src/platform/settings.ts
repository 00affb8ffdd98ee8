import * as vscode from 'vscode';
import { readOverrides, type ModelOverride } from '../api/modelLimits';
import type { ChatParams } from '../shared/protocol';
import { boundedNumber } from './settingValues';

/** Every setting of `contributes.configuration`, typed, with the defaults of package.json. */
export interface Settings {
  // No baseUrl/videoBaseUrl: the gateway address is read only through `GatewayOrigins`, which
  // asks before a workspace-set address gets the key.
  chatModel: string;
  videoModel: string;
  chat: {
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
  tools: { maxRounds: number };
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

export const SECTION = 'gatewayStudio';

/** Reads the settings now; call again after `onDidChange` rather than caching a copy. */
export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const g = <T>(key: string, fallback: T): T => c.get<T>(key, fallback) ?? fallback;
  // Ranges as in package.json; see settingValues.ts for why they are enforced here too.
  const n = (key: string, fallback: number, min: number, max: number, integer = false): number =>
    boundedNumber(c.get<unknown>(key), fallback, min, max, integer);
  return {
    chatModel: g('chatModel', ''),
    videoModel: g('videoModel', 'vendor-image-video'),
    chat: {
      systemPrompt: g('chat.systemPrompt', ''),
      environmentContext: g('chat.environmentContext', true),
      stream: g('chat.stream', true),
      temperature: g<number | null>('chat.temperature', null),
      topP: g<number | null>('chat.topP', null),
      maxTokens: g<number | null>('chat.maxTokens', null),
      stop: g<string[]>('chat.stop', []),
      presencePenalty: g<number | null>('chat.presencePenalty', null),
      frequencyPenalty: g<number | null>('chat.frequencyPenalty', null),
      responseFormat: g<'text' | 'json_object'>('chat.responseFormat', 'text'),
      user: g('chat.user', ''),
      maxImageMegabytes: n('chat.maxImageMegabytes', 5, 0.1, 20),
      imageStorageMegabytes: n('chat.imageStorageMegabytes', 200, 1, 100_000),
    },
    tools: { maxRounds: n('tools.maxRounds', 10, 1, 100, true) },
    modelOverrides: readOverrides(c.get<unknown>('models.overrides')),
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

/**
 * What the chat session reads of the settings (its `SessionSettings`, which this layer may not
 * import): the default model, system prompt and parameters, the tool rounds, the model overrides.
 */
export interface ChatSessionSettings {
  chatModel: string;
  systemPrompt: string;
  params: ChatParams;
  maxRounds: number;
  modelOverrides: Record<string, ModelOverride>;
}

export function chatSessionSettings(s: Settings = readSettings()): ChatSessionSettings {
  return {
    chatModel: s.chatModel,
    systemPrompt: s.chat.systemPrompt,
    params: chatParams(s),
    maxRounds: s.tools.maxRounds,
    modelOverrides: s.modelOverrides,
  };
}

/** The settings' chat parameters under their wire names. */
export function chatParams(s: Settings): ChatParams {
  return {
    temperature: s.chat.temperature,
    top_p: s.chat.topP,
    max_tokens: s.chat.maxTokens,
    stop: s.chat.stop.filter((x) => typeof x === 'string' && x !== ''),
    presence_penalty: s.chat.presencePenalty,
    frequency_penalty: s.chat.frequencyPenalty,
    response_format: s.chat.responseFormat === 'json_object' ? 'json_object' : 'text',
    user: s.chat.user,
    stream: s.chat.stream,
  };
}

/** Fires `listener` with fresh settings whenever any `gatewayStudio.*` setting changes. */
export function onDidChangeSettings(listener: (s: Settings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener(readSettings());
  });
}

/** Writes one setting (without the `gatewayStudio.` prefix) at user level unless told otherwise. */
export function updateSetting(key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Thenable<void> {
  return vscode.workspace.getConfiguration(SECTION).update(key, value, target);
}
