/** The page's localised strings (sent by the host with the snapshot) and `t` over them. */
import { signal } from '@preact/signals';
import type { WebviewString } from '../../../src/shared/webviewStrings';

export type Translate = (key: WebviewString, ...args: (string | number)[]) => string;

export function createStringsModel() {
  const strings = signal<Record<string, string>>({});

  /** Localised text for `key`, with `{0}`, `{1}`… replaced. */
  const t: Translate = (key, ...args) => {
    const s = strings.value[key] ?? key;
    return s.replace(/\{(\d+)\}/g, (m, i: string) => {
      const v = args[Number(i)];
      return v === undefined ? m : String(v);
    });
  };

  return { strings, t };
}
