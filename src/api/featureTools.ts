/**
 * A tool one feature offers to another feature's tool runner (the video feature's tools in the
 * chat panel), in a shape that belongs to neither: features may not import each other, so
 * `extension.ts` hands the video tools to the chat tools through this type.
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
  run(call: FeatureToolCall): Promise<{ content: string; preview?: string }>;
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
}
