import { strings } from '../gallery/strings';
import type { StoryboardString } from '../../src/shared/storyboardStrings';

/** The string in the display language (the gallery's table holds both pages' strings), `{0}`… filled. */
export function t(key: StoryboardString, ...args: (string | number)[]): string {
  const s = strings.value[key] ?? key;
  return args.length === 0 ? s : s.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));
}
