import { FeatureToolError, type FeatureTool } from '../../api/featureTools';
import { ToolError, type Tool } from '../core/toolRunner';

/**
 * Another feature's tool (see `src/api/featureTools.ts`) as one of the chat's tools. Its
 * refusals ({@link FeatureToolError}) become {@link ToolError}s, so the model reads them as the
 * tool's answer and the card shows them, like a built-in tool's.
 */
export function featureTool(t: FeatureTool): Tool {
  const asToolError = (e: unknown): unknown => (e instanceof FeatureToolError ? new ToolError(e.message) : e);
  return {
    definition: { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } },
    readOnly: t.readOnly,
    async prepare(args, ctx) {
      try {
        const p = await t.prepare(args, { signal: ctx.signal, callId: ctx.callId });
        return {
          ...(p.summary !== undefined ? { summary: p.summary } : {}),
          run: (c) =>
            p.run({ signal: c.signal, callId: c.callId }).catch((e: unknown) => Promise.reject(asToolError(e))),
        };
      } catch (e) {
        throw asToolError(e);
      }
    },
  };
}
