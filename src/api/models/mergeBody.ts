// The deep merge of a model's `extraBody` into a request body (modelCall.ts, modelRoute.ts).

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * `extra` deep-merged into `base` (neither changed): objects merge key by key, a `null` deletes
 * the key, anything else (arrays included) replaces it.
 */
export function mergeBody(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    if (v === null) delete out[k];
    else {
      const a = obj(out[k]);
      const b = obj(v);
      out[k] = a && b ? mergeBody(a, b) : b ? mergeBody({}, b) : v;
    }
  }
  return out;
}
