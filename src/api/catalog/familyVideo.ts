/**
 * The video wizard, the agent tools and the jobs speak the spec's request (`VideoCreateRequest`:
 * `image_urls`, `seconds`, `aspect_ratio`, `resolution`); a model of a catalog family is sent in
 * its family's shape instead. This maps one to the other (the images to the family's frame or
 * reference slots) and gives the wizard the family's choices in the spec rules' form, so each
 * step offers only what the family allows.
 */
import type { CatalogFamily, ImageAccepts } from './catalog';
import type { CatalogVideoRequest } from './catalogRules';
import type { VideoCreateRequest, VideoModelRules } from '../video/videoRules';

/** The images of a spec request, in order (`image_urls`, its alias `images`, the references). */
function imagesOf(req: VideoCreateRequest): string[] {
  const ref = req.input_reference;
  return [
    ...(req.image_urls ?? []),
    ...(req.images ?? []),
    ...(ref === undefined ? [] : [typeof ref === 'string' ? ref : ref.image_url]),
    ...(req.reference_images ?? []),
  ];
}

/**
 * The family's request for a spec request: one image is the first frame where the family has one
 * (image to video), two are first and last frame where it takes both and no references, more (or
 * a family without frames) are reference images; a field the family does not take is left out.
 */
export function familyVideoRequest(f: CatalogFamily, req: VideoCreateRequest): CatalogVideoRequest {
  const images = imagesOf(req);
  const out: CatalogVideoRequest = { model: req.model, prompt: req.prompt };
  if (req.seconds !== undefined && f.durations) out.seconds = req.seconds;
  if (req.aspect_ratio !== undefined && f.aspectRatios) out.aspectRatio = req.aspect_ratio;
  if (req.resolution !== undefined && f.resolutions) {
    // Wan lists 720P: the spec's lower-case value is the same resolution.
    out.resolution = f.resolutions.find((r) => r.toLowerCase() === req.resolution!.toLowerCase()) ?? req.resolution;
  }
  if (images.length === 1 && f.firstFrame) out.firstFrame = images[0]!;
  else if (images.length === 2 && f.firstFrame && f.lastFrame && !f.references) {
    out.firstFrame = images[0]!;
    out.lastFrame = images[1]!;
  } else if (images.length > 0) out.references = images;
  return out;
}

/** How many images the family takes at most: its references, else its frames. */
function maxImages(f: CatalogFamily): number {
  const frames = (f.firstFrame ? 1 : 0) + (f.lastFrame && !f.references ? 1 : 0);
  return Math.max(f.references?.max ?? 0, frames);
}

/** The family's choices as the wizard reads them, and whether its images must be HTTPS links. */
export function familyVideoRules(f: CatalogFamily, model: string): VideoModelRules & { urlOnly: boolean } {
  const durations = f.durations ?? [];
  const slots: ImageAccepts[] = [f.firstFrame, f.lastFrame, f.references].flatMap((s) => (s ? [s.accepts] : []));
  return {
    model,
    known: true,
    textToVideo: f.textInput,
    minImages: f.textInput ? 0 : 1,
    maxImages: maxImages(f),
    maxSeconds: durations.length ? Math.max(...durations) : 0,
    suggestedSeconds: durations,
    suggestedSecondsMulti: [],
    aspectRatios: f.aspectRatios ?? [],
    resolutions: f.resolutions ?? [],
    urlOnly: slots.length > 0 && slots.every((a) => a === 'url'),
  };
}
