import type { GalleryTask } from '../shared/protocol/gallery';
import type { VideoCardAction } from '../shared/protocol';

/**
 * A tool one feature offers to another feature's tool runner (the video feature's tools in the
 * chat panel), in a shape that belongs to neither: features may not import each other, so
 * `extension.ts` hands the video tools to the chat tools through this type. What such a tool
 * starts is a media job of a kind, which the chat's card follows through its {@link MediaJobSource}.
 */

/** Thrown by `prepare` or `run` for a failure the model should read and act on (a broken rule). */
export class FeatureToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeatureToolError';
  }
}

export interface FeatureToolCall {
  /** Aborted when the user presses Stop. */
  signal: AbortSignal;
  /** The call's id in the conversation (keys the chat card). */
  callId: string;
}

/** A prepared call: checked, ready to be approved and run. */
export interface FeaturePreparedCall {
  /** What the approval shows besides the arguments (a billed action says so here). */
  summary?: string;
  /** A line the chat's approval card shows while it asks: a billed call's price. */
  note?: string;
  run(call: FeatureToolCall): Promise<FeatureToolResult>;
}

export interface FeatureToolResult {
  content: string;
  preview?: string;
  /** A media job the call started, which its card keeps showing after the call ends (a video task). */
  follow?: MediaJobRef;
}

/**
 * What a media job is: a video task, a storyboard run, an image request. The job store, the status
 * bar, the gallery's cards, the costs and the agent tools tell jobs apart by this kind.
 */
export type MediaKind = 'video' | 'storyboard' | 'image';

/** One media job, by its kind and its key in the store of that kind. */
export interface MediaJobRef {
  kind: MediaKind;
  key: string;
}

/**
 * The kind of a followed call as stored, or undefined when it names none. Calls stored before the
 * media kinds named a video task `videoTask`: they are video jobs.
 */
export function storedMediaKind(v: unknown): MediaKind | undefined {
  if (v === 'videoTask' || v === 'video') return 'video';
  return v === 'storyboard' || v === 'image' ? v : undefined;
}

/**
 * The feature that owns media jobs of one kind (video), as the chat sees it: change events, the
 * job in the gallery card's shape with local files as webview URIs, the folders those URIs lie
 * in (the chat page's `localResourceRoots`), and the card's actions.
 */
export interface MediaJobSource {
  /** What `follow.kind` names this source (stored with a followed call, to find it again after a restart). */
  kind: MediaKind;
  watch(key: string, listener: () => void): { dispose(): void };
  describe(key: string, asWebviewUri: (fsPath: string) => string): Promise<GalleryTask | undefined>;
  resourceRoots(): string[];
  act(key: string, action: VideoCardAction): Promise<void>;
}

export interface FeatureTool {
  /** The wire name (`[A-Za-z0-9_-]{1,64}`). */
  name: string;
  description: string;
  /** A JSON Schema object. */
  parameters: Record<string, unknown>;
  /** False: the tool changes something (or costs money), so every call is approved. */
  readOnly: boolean;
  /** Checks the arguments; throws {@link FeatureToolError} when the call cannot happen. */
  prepare(args: Record<string, unknown>, call: FeatureToolCall): Promise<FeaturePreparedCall>;
  /** Set when a run's result may `follow` a media job of this feature. */
  jobs?: MediaJobSource;
}
