/**
 * The shipped catalog's video families as the generate tool's description gives them to a model
 * (../../../api/catalog). Only the manifest script and the tests load this: the text is written
 * into package.json's `modelDescription`, where the chat's copy reads it.
 */
import { shippedCatalog, type CatalogFamily } from '../../../api/catalog/catalog';

/** One catalog family as a model reads it: its model ids, durations, choices and images. */
function familyText(f: CatalogFamily): string {
  const images = [
    f.firstFrame ? 'a first frame' : '',
    f.lastFrame ? 'a last frame' : '',
    f.references ? `up to ${f.references.max} reference images` : '',
  ].filter(Boolean);
  const urlOnly = [f.firstFrame, f.lastFrame, f.references].every((s) => !s || s.accepts === 'url');
  return [
    `${f.name} (model ids matching ${f.models.join(' or ')}): ${f.textInput ? 'text or image to video' : 'image to video only'}`,
    f.durations ? `seconds ${f.durations.join(', ')}` : '',
    f.aspectRatios ? `aspect ratios ${f.aspectRatios.join(', ')}` : '',
    f.resolutions ? `resolutions ${f.resolutions.join(', ')}` : '',
    images.length ? `images: ${images.join(', ')}${urlOnly ? ' (public HTTPS URLs only, never files)' : ''}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The shipped catalog's video families: a model of one is sent in its family's own request shape. */
export function catalogRulesText(): string {
  const video = shippedCatalog().families.filter((f) => f.kind === 'video');
  return `Catalog families (one image is the first frame, two are first and last frame where both are taken, more are references): ${video.map(familyText).join('. ')}.`;
}
