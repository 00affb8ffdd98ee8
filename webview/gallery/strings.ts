import type { GalleryString } from '../../src/shared/galleryStrings';
import { translator } from '../common/strings';

/** The gallery's string in the display language, `{0}`… filled from `args`. */
export const t = translator<GalleryString>();
