import { signal } from '@preact/signals';
import type { GalleryString } from '../../src/shared/galleryStrings';

/** The host's translations of `GALLERY_STRINGS` (empty until `gallery/strings` arrives: English). */
export const strings = signal<Record<string, string>>({});

/** The string in the display language, `{0}`… filled from `args`. */
export function t(key: GalleryString, ...args: (string | number)[]): string {
  const s = strings.value[key] ?? key;
  return args.length === 0 ? s : s.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));
}
