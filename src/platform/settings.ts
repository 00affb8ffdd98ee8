import * as vscode from 'vscode';

/** Every setting of `contributes.configuration`, typed, with the defaults of package.json. */
export interface Settings {
  baseUrl: string;
  videoBaseUrl: string;
  chatModel: string;
  videoModel: string;
  chat: {
    systemPrompt: string;
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
  };
  tools: { maxRounds: number };
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
  return {
    baseUrl: g('baseUrl', ''),
    videoBaseUrl: g('videoBaseUrl', ''),
    chatModel: g('chatModel', ''),
    videoModel: g('videoModel', 'vendor-image-video'),
    chat: {
      systemPrompt: g('chat.systemPrompt', ''),
      stream: g('chat.stream', true),
      temperature: g<number | null>('chat.temperature', null),
      topP: g<number | null>('chat.topP', null),
      maxTokens: g<number | null>('chat.maxTokens', null),
      stop: g<string[]>('chat.stop', []),
      presencePenalty: g<number | null>('chat.presencePenalty', null),
      frequencyPenalty: g<number | null>('chat.frequencyPenalty', null),
      responseFormat: g<'text' | 'json_object'>('chat.responseFormat', 'text'),
      user: g('chat.user', ''),
      maxImageMegabytes: g('chat.maxImageMegabytes', 5),
    },
    tools: { maxRounds: g('tools.maxRounds', 10) },
    video: {
      seconds: g('video.seconds', 4),
      aspectRatio: g('video.aspectRatio', '16:9'),
      resolution: g('video.resolution', '720p'),
      outputFolder: g('video.outputFolder', 'videos'),
      pollIntervalSeconds: g('video.pollIntervalSeconds', 5),
      pollLimit: g('video.pollLimit', 60),
    },
    network: {
      requestTimeoutSeconds: g('network.requestTimeoutSeconds', 60),
      streamIdleTimeoutSeconds: g('network.streamIdleTimeoutSeconds', 120),
      maxRetries: g('network.maxRetries', 2),
    },
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
