import { signal } from '@preact/signals';

/**
 * The host's translations for the media pages (gallery and storyboard; one table holds both pages'
 * strings). Empty until `gallery/strings` or `board/strings` arrives: English until then.
 */
export const strings = signal<Record<string, string>>({});

/** A page's `t`: the string in the display language, `{0}`… filled from `args`. */
export function translator<K extends string>(): (key: K, ...args: (string | number)[]) => string {
  return (key, ...args) => {
    const s = strings.value[key] ?? key;
    return args.length === 0 ? s : s.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));
  };
}
