// What the Chinese files must cover, computed the way `npm run l10n` computes it: the official
// extractor (@vscode/l10n-dev) over every source file of `src/`, plus the two webview string
// tables (the host passes their entries to `vscode.l10n.t` as variables, which no extractor can
// see). Shared by scripts/l10n.ts and test/unit/tooling/l10nZhCn.test.ts so both mean the same keys.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { GALLERY_STRINGS } from '../src/shared/galleryStrings';
import { STORYBOARD_STRINGS } from '../src/shared/storyboardStrings';
import { WEBVIEW_STRINGS } from '../src/shared/webviewStrings';

export const ROOT = join(__dirname, '..');
export const LOCALE = 'zh-cn';
export const paths = {
  nls: join(ROOT, 'package.nls.json'),
  nlsZh: join(ROOT, `package.nls.${LOCALE}.json`),
  bundle: join(ROOT, 'l10n', 'bundle.l10n.json'),
  bundleZh: join(ROOT, 'l10n', `bundle.l10n.${LOCALE}.json`),
};

export type Strings = Record<string, string>;

export const readJson = (file: string): Strings => JSON.parse(readFileSync(file, 'utf8')) as Strings;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return ['.ts', '.tsx', '.js'].includes(extname(e.name)) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The English bundle: `l10n.t` literals found by @vscode/l10n-dev, then the webview tables. */
export async function extractBundle(): Promise<Strings> {
  const files = sources(join(ROOT, 'src')).map((f) => ({ contents: readFileSync(f, 'utf8'), extension: extname(f) }));
  const found = await getL10nJson(files);
  const out: Strings = {};
  for (const [k, v] of Object.entries(found)) out[k] = typeof v === 'string' ? v : v.message;
  for (const k of [...WEBVIEW_STRINGS, ...GALLERY_STRINGS, ...STORYBOARD_STRINGS]) out[k] ??= k;
  return out;
}

/** `{0}`, `{1}`… of a string, sorted, as one comparable text. */
export const placeholders = (s: string): string => (s.match(/\{\d+\}/g) ?? []).sort().join(' ');

export interface Gap {
  file: string;
  missing: Strings;
  stale: string[];
}

/** Keys of `english` absent from `translated` (with the English to translate), and leftovers. */
export function gap(file: string, english: Strings, translated: Strings): Gap {
  const missing: Strings = {};
  for (const [k, v] of Object.entries(english)) if (!(k in translated)) missing[k] = v;
  return { file, missing, stale: Object.keys(translated).filter((k) => !(k in english)) };
}

/**
 * Strings legitimately the same in Chinese as in English, each with the reason. Anything else
 * equal to its English counts as untranslated.
 */
export const SAME_IN_CHINESE: Record<string, string> = {
  'Gateway Studio': 'the product name (view container, language-model vendor name)',
  'Gateway Studio: {0}': 'the product name as a prefix of a message that is itself translated',
  '{0}{1}': 'only joins two translated parts',
  '{0} {1}': 'only joins two translated parts',
};

/** What is wrong with `translated` against `english`: one line per problem, empty when complete. */
export function problems(english: Strings, translated: Strings): string[] {
  const out: string[] = [];
  for (const [key, en] of Object.entries(english)) {
    const zh = translated[key];
    if (zh === undefined) out.push(`missing: ${JSON.stringify(key)}`);
    else if (zh.trim() === '') out.push(`empty: ${JSON.stringify(key)}`);
    else if (zh === en && !(en in SAME_IN_CHINESE))
      out.push(`English copied (list it in SAME_IN_CHINESE with a reason if right): ${JSON.stringify(key)}`);
    else if (placeholders(zh) !== placeholders(en))
      out.push(
        `placeholders ${placeholders(zh) || 'none'} instead of ${placeholders(en) || 'none'}: ${JSON.stringify(key)}`,
      );
  }
  return out;
}
