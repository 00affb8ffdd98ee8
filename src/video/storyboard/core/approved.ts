/**
 * What the user approved for each unit of a board's run, frozen at the approval: the model,
 * seconds, resolution, aspect ratio, prompt, the reference images by the hash of what is sent (a
 * file swapped for another under the same name is another image) and the shot it continues from.
 * A chained shot starts minutes after the approval, from the board as it is then; a unit whose
 * request differs from its frozen one is not sent on the old approval (the caller asks again or
 * refuses). The frozen plan is kept with the run (workspace state), so a reload keeps it too.
 */
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import type { VideoCreateRequest } from '../../../api/video/videoRules';
import * as z from '../../../shared/zod';
import { MAX_TAKES, SHOT_ID } from './board';
import { unitKey, type Unit } from './plan';

export const approvedUnitSchema = z.object({
  shotId: z.string().check(z.regex(SHOT_ID)),
  take: z.number().check(z.int(), z.gte(1), z.lte(MAX_TAKES)),
  model: z.string().check(z.maxLength(200)),
  prompt: z.string().check(z.maxLength(8000)),
  seconds: z.optional(z.number()),
  resolution: z.optional(z.string().check(z.maxLength(40))),
  aspectRatio: z.optional(z.string().check(z.maxLength(40))),
  /** sha256 of each of the shot's own reference images as sent (data URL or HTTPS URL), in order. */
  images: z.array(z.string().check(z.regex(/^[0-9a-f]{64}$|^unreadable$/))).check(z.maxLength(16)),
  /** The unit whose last frame it carries (`shot#take`), for a chained shot. */
  after: z.optional(z.string().check(z.maxLength(60))),
});
export type ApprovedUnit = z.infer<typeof approvedUnitSchema>;

/** Stands for an image that could not be read at the approval: whatever is read later differs. */
export const UNREADABLE = 'unreadable';

export function imageHash(sent: string): string {
  return createHash('sha256').update(sent).digest('hex');
}

/**
 * A unit's request as it would be sent now. `request.image_urls` holds the shot's own images as
 * sent (no last frame: that clip does not exist yet at the approval), or `undefined` entries for
 * images that could not be read.
 */
export function freezeUnit(
  unit: Unit,
  request: Omit<VideoCreateRequest, 'image_urls'>,
  images: ReadonlyArray<string | undefined>,
  after: Unit | undefined,
): ApprovedUnit {
  return {
    shotId: unit.shotId,
    take: unit.take,
    model: request.model,
    prompt: request.prompt,
    ...(request.seconds !== undefined ? { seconds: request.seconds } : {}),
    ...(request.resolution !== undefined ? { resolution: request.resolution } : {}),
    ...(request.aspect_ratio !== undefined ? { aspectRatio: request.aspect_ratio } : {}),
    images: images.map((i) => (i === undefined ? UNREADABLE : imageHash(i))),
    ...(after ? { after: unitKey(after) } : {}),
  };
}

/** What differs between the approved unit and the one about to be sent, in words (empty: the same). */
export function unitChanges(approved: ApprovedUnit | undefined, now: ApprovedUnit): string[] {
  if (!approved) return [l10n.t('it was not part of the approved run')];
  const out: string[] = [];
  const was = (a: unknown, b: unknown) =>
    `${a === undefined ? '-' : String(a)} -> ${b === undefined ? '-' : String(b)}`;
  if (approved.model !== now.model) out.push(l10n.t('model {0}', was(approved.model, now.model)));
  if (approved.seconds !== now.seconds) out.push(l10n.t('seconds {0}', was(approved.seconds, now.seconds)));
  if (approved.resolution !== now.resolution)
    out.push(l10n.t('resolution {0}', was(approved.resolution, now.resolution)));
  if (approved.aspectRatio !== now.aspectRatio)
    out.push(l10n.t('aspect ratio {0}', was(approved.aspectRatio, now.aspectRatio)));
  if (approved.prompt !== now.prompt) out.push(l10n.t('the prompt changed'));
  if (approved.images.length !== now.images.length || approved.images.some((h, i) => h !== now.images[i]))
    out.push(l10n.t('the reference images changed'));
  if (approved.after !== now.after) out.push(l10n.t('the shot it continues from changed'));
  return out;
}

/**
 * The approved units kept with a run (workspace state, which a repository does not write but an
 * older version may have, as bare units): an entry that is not a whole approved unit is dropped,
 * so it never starts on an approval nobody can show.
 */
export function parseApprovedRun(raw: unknown): ApprovedUnit[] {
  if (!Array.isArray(raw)) return [];
  const out: ApprovedUnit[] = [];
  for (const e of raw.slice(0, 200)) {
    const r = approvedUnitSchema.safeParse(e);
    if (r.success) out.push(r.data);
  }
  return out;
}
