import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
import { GatewayError } from '../transport/errors';

/** A model record of spec 2.3; unknown extra fields are kept. */
export const modelRecordSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  object: z.optional(z.string()),
  created: z.optional(z.number()),
  owned_by: z.optional(z.string()),
  capabilities: z.optional(z.array(z.string())),
  modalities: z.optional(z.array(z.string())),
});

export type ModelRecord = z.infer<typeof modelRecordSchema>;

/** The list envelope is "not shown" by the spec: accept `{ data: [...] }`, `{ models: [...] }` or a bare array. */
const envelopeSchema = z.union([
  z.array(z.unknown()),
  z.looseObject({ data: z.array(z.unknown()) }),
  z.looseObject({ models: z.array(z.unknown()) }),
]);

/**
 * Reads a `/v1/models` body. Records that do not validate are dropped and reported through
 * `onDropped`; if every record is invalid, the answer is an `invalid_response`.
 */
export function parseModelList(body: unknown, onDropped?: (why: string) => void): ModelRecord[] {
  const env = envelopeSchema.safeParse(body);
  if (!env.success) {
    throw new GatewayError(
      'invalid_response',
      l10n.t('The model list is neither an array nor an object with a "data" array.'),
    );
  }
  const d = env.data as unknown[] | { data?: unknown[]; models?: unknown[] };
  const items: unknown[] = Array.isArray(d) ? d : (d.data ?? d.models ?? []);
  const out: ModelRecord[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const r = modelRecordSchema.safeParse(typeof item === 'string' ? { id: item } : item);
    if (!r.success) {
      onDropped?.(`model record ${i}: ${r.error.issues[0]?.path.join('.') ?? ''} ${r.error.issues[0]?.message ?? ''}`);
      return;
    }
    if (seen.has(r.data.id)) return;
    seen.add(r.data.id);
    out.push(r.data);
  });
  if (items.length > 0 && out.length === 0) {
    throw new GatewayError('invalid_response', l10n.t('None of the {0} model records has a valid "id".', items.length));
  }
  return out;
}

/** True when the record says it makes videos (capabilities or modalities). */
export function isVideoModel(m: ModelRecord): boolean {
  return Boolean(m.capabilities?.includes('video') || m.modalities?.includes('video'));
}

/** True when the record advertises image input. */
export function acceptsImages(m: ModelRecord): boolean {
  return Boolean(
    m.capabilities?.includes('image') || m.capabilities?.includes('vision') || m.modalities?.includes('image'),
  );
}
