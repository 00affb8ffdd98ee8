/**
 * The account settings (`gatewayStudio.spend.*`) from the user's own values only. A workspace (or
 * a dev container's machine settings) could otherwise turn the feature off, lower the prices or
 * the group ratio, raise `confirmAbove`, or point `balanceSource` at its own server, and so hide
 * what a clip costs, skip the question before it, or show a balance it made up. `user` is the
 * user layer alone (src/platform/userSettings.ts `userValue`, over src/shared/settingLayers.ts).
 */
import type { CustomSource } from '../../balance/core/detect';
import type { PriceSetting } from '../../pricing/core/pricing';

export interface SpendSettings {
  enabled: boolean;
  /** In the gateway's display unit; 0: never warn. */
  warnBelow: number;
  /** In the gateway's display unit: a single video action estimated above it asks first; 0: never. */
  confirmAbove: number;
  group: string;
  prices: Record<string, PriceSetting>;
  /** Only from the user's own settings: a workspace may not choose where requests go. */
  custom?: CustomSource;
}

/** A configured balance source: an http(s) URL and the JSON path of the figure; else none. */
export function customSourceFrom(src: unknown): CustomSource | undefined {
  if (typeof src !== 'object' || src === null) return undefined;
  const o = src as Record<string, unknown>;
  if (typeof o.url !== 'string' || !/^https?:\/\//i.test(o.url.trim()) || typeof o.balancePath !== 'string')
    return undefined;
  return {
    url: o.url.trim(),
    balancePath: o.balancePath,
    ...(typeof o.currencyPath === 'string' && o.currencyPath !== '' ? { currencyPath: o.currencyPath } : {}),
  };
}

/** The settings from `user(key)`, the user's own value of `gatewayStudio.spend.<key>`. */
export function spendSettingsFrom(user: (key: string) => unknown): SpendSettings {
  const warn = user('warnBelow');
  const above = user('confirmAbove');
  const group = user('group');
  const prices = user('prices');
  return {
    enabled: user('enabled') !== false,
    warnBelow: typeof warn === 'number' && Number.isFinite(warn) && warn > 0 ? warn : 0,
    confirmAbove: typeof above === 'number' && Number.isFinite(above) && above > 0 ? above : 0,
    group: typeof group === 'string' && group.trim() !== '' ? group.trim() : 'default',
    prices: typeof prices === 'object' && prices !== null ? (prices as Record<string, PriceSetting>) : {},
    custom: customSourceFrom(user('balanceSource')),
  };
}
