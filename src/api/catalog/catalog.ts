/**
 * The model catalog as data: what each video and image family accepts and how its request is
 * shaped (./catalog.json, its sources in ./README.md). This module loads it, merges the user's
 * override over it and finds a model's family. No VS Code here: the caller hands in the setting's
 * layers (src/shared/settingLayers.ts), and only the user's own layer is ever read, so a
 * repository cannot widen what a model is allowed to take.
 */
import * as l10n from '@vscode/l10n';
import shipped from './catalog.json';

/** Where a family's requests go: new-api's unified video form, OpenAI's multipart video form, the image routes, or chat. */
export type CatalogRoute = 'video-generations' | 'videos-multipart' | 'images' | 'chat-images';
/** What an image input may be: an HTTPS link only, a link or a base64 data URL, or a file sent as a multipart part. */
export type ImageAccepts = 'url' | 'url-or-base64' | 'file';

/** Where one image input goes on the wire: a field path (`metadata.image_tail`), with a content role for Seedance-style lists. */
export interface ImageSlot {
  readonly field: string;
  readonly accepts: ImageAccepts;
  readonly role?: string;
}

export interface CatalogFamily {
  readonly id: string;
  readonly name: string;
  readonly kind: 'video' | 'image';
  /** Regular expressions (case-insensitive) a model id is matched against, in catalog order. */
  readonly models: readonly string[];
  readonly route: CatalogRoute;
  /** Whether a request without any image is allowed (text-to-video, text-to-image). */
  readonly textInput: boolean;
  readonly durations?: readonly number[];
  readonly aspectRatios?: readonly string[];
  readonly resolutions?: readonly string[];
  readonly sizes?: readonly string[];
  /** Any `WxH` size is accepted besides the listed ones. */
  readonly sizePattern?: boolean;
  readonly modes?: readonly string[];
  /** The audio flag and the values it is sent as. */
  readonly audio?: { readonly field: string; readonly on: unknown; readonly off: unknown };
  readonly references?: ImageSlot & { readonly max: number; readonly min?: number };
  readonly firstFrame?: ImageSlot;
  readonly lastFrame?: ImageSlot & { readonly needsFirst?: boolean };
  /** False: first/last frames and reference images cannot be sent together. */
  readonly framesWithReferences?: boolean;
  /** Wire field paths of the scalar settings (`duration`, `metadata.aspect_ratio`). */
  readonly fields?: Readonly<Partial<Record<'seconds' | 'aspectRatio' | 'resolution' | 'size' | 'mode', string>>>;
  readonly qualities?: readonly string[];
  readonly backgrounds?: readonly string[];
  readonly outputFormats?: readonly string[];
  readonly n?: { readonly max: number };
  readonly edits?: { readonly maxImages: number; readonly mask: boolean };
  /** What an image answer carries. */
  readonly answer?: 'b64_json' | 'url' | 'either';
}

export interface Catalog {
  readonly version: number;
  readonly families: readonly CatalogFamily[];
}

/** A catalog with what was wrong with the override that made it (each problem one line for the user). */
export interface LoadedCatalog {
  readonly catalog: Catalog;
  readonly problems: readonly string[];
}

export const CATALOG_SETTING = 'gatewayStudio.media.catalogOverrides';

const ROUTES: readonly CatalogRoute[] = ['video-generations', 'videos-multipart', 'images', 'chat-images'];

/** The catalog that ships with the extension. */
export function shippedCatalog(): Catalog {
  return shipped as Catalog;
}

/** The family of `model`: the first whose pattern matches; undefined gets the general checks. */
export function familyFor(catalog: Catalog, model: string, kind?: 'video' | 'image'): CatalogFamily | undefined {
  const id = model.trim();
  if (id === '') return undefined;
  return catalog.families.find(
    (f) => (kind === undefined || f.kind === kind) && f.models.some((p) => safeRegExp(p)?.test(id) === true),
  );
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'i');
  } catch {
    return undefined;
  }
}

/** 1-based line and column of a character offset. */
function lineOf(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, at));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

/**
 * Parses an override's text. A syntax error becomes one line naming `source` and the line and
 * column where it is, so the user can go there; the shipped catalog then applies unchanged.
 */
export function parseOverrideText(text: string, source: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(msg);
    const where = at ? lineOf(text, Number(at[1])) : lineOf(text, text.length);
    return {
      problem: l10n.t(
        '{0}, line {1}, column {2}: the catalog override is not valid JSON ({3}); the shipped catalog applies.',
        source,
        where.line,
        where.column,
        msg.replace(/ in JSON at position \d+.*$/, ''),
      ),
    };
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why `f` (a whole family after merging) cannot be used, or undefined. */
function familyProblem(f: Record<string, unknown>): string | undefined {
  if (typeof f.id !== 'string' || f.id.trim() === '') return l10n.t('a family needs an "id"');
  if (f.kind !== 'video' && f.kind !== 'image') return l10n.t('family "{0}": "kind" must be video or image', f.id);
  if (!Array.isArray(f.models) || f.models.length === 0 || !f.models.every((m) => typeof m === 'string'))
    return l10n.t('family "{0}": "models" must be a non-empty list of patterns', f.id);
  const bad = (f.models as string[]).find((m) => safeRegExp(m) === undefined);
  if (bad !== undefined) return l10n.t('family "{0}": "{1}" is not a valid pattern', f.id, bad);
  if (!ROUTES.includes(f.route as CatalogRoute))
    return l10n.t('family "{0}": "route" must be one of {1}', f.id, ROUTES.join(', '));
  for (const k of ['durations', 'aspectRatios', 'resolutions', 'sizes', 'modes', 'qualities', 'backgrounds'] as const)
    if (f[k] !== undefined && !Array.isArray(f[k])) return l10n.t('family "{0}": "{1}" must be a list', f.id, k);
  if (f.durations !== undefined && !(f.durations as unknown[]).every((d) => Number.isInteger(d) && (d as number) > 0))
    return l10n.t('family "{0}": "durations" must be whole seconds', f.id);
  if (isObj(f.n) && !(Number.isInteger(f.n.max) && (f.n.max as number) >= 1))
    return l10n.t('family "{0}": "n.max" must be a whole number of at least 1', f.id);
  return undefined;
}

/**
 * Merges an override (`{ families: [...] }`) over `base`: an entry whose id exists replaces the
 * fields it names, a new id adds a family in front (so it wins the match). Entries with a problem
 * are skipped, each named.
 */
export function mergeCatalog(base: Catalog, override: unknown, source: string): LoadedCatalog {
  if (!isObj(override) || !Array.isArray(override.families))
    return {
      catalog: base,
      problems: [l10n.t('{0}: the catalog override must be an object with a "families" list; it was ignored.', source)],
    };
  const problems: string[] = [];
  const families = [...base.families];
  const added: CatalogFamily[] = [];
  override.families.forEach((entry: unknown, i) => {
    if (!isObj(entry)) return problems.push(l10n.t('{0}: families[{1}] is not an object; it was ignored.', source, i));
    const at = families.findIndex((f) => f.id === entry.id);
    const merged = { ...(at >= 0 ? families[at] : { name: entry.id, textInput: true }), ...entry };
    const why = familyProblem(merged);
    if (why) return problems.push(l10n.t('{0}: {1}; that entry was ignored.', source, why));
    if (at >= 0) families[at] = merged as unknown as CatalogFamily;
    else added.push(merged as unknown as CatalogFamily);
    return undefined;
  });
  return { catalog: { version: base.version, families: [...added, ...families] }, problems };
}

/** The setting's layers as ./settingLayers splits them (only the user's own is read). */
export interface CatalogSettingLayers {
  readonly globalValue?: unknown;
  readonly remoteValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * The catalog in effect: the shipped one with the user's override merged over it. The user's
 * value may be the override object itself or its JSON text (a file's content). A value a
 * repository set (workspace, folder, the remote machine) is never merged: it is named as ignored.
 */
export function loadCatalog(layers: CatalogSettingLayers = {}, source = CATALOG_SETTING): LoadedCatalog {
  const base = shippedCatalog();
  const problems: string[] = [];
  const repo = [layers.workspaceFolderValue, layers.workspaceValue, layers.remoteValue].some(
    (v) => v !== undefined && v !== null && v !== '',
  );
  if (repo)
    problems.push(
      l10n.t(
        '{0} is set by the workspace; a catalog override is read from your user settings only, so it was ignored.',
        CATALOG_SETTING,
      ),
    );
  let value = layers.globalValue;
  if (value === undefined || value === null || value === '') return { catalog: base, problems };
  if (typeof value === 'string') {
    const parsed = parseOverrideText(value, source);
    if (parsed.problem) return { catalog: base, problems: [...problems, parsed.problem] };
    value = parsed.value;
  }
  // An empty object is the setting's default shape: nothing to merge.
  if (isObj(value) && Object.keys(value).length === 0) return { catalog: base, problems };
  const merged = mergeCatalog(base, value, source);
  return { catalog: merged.catalog, problems: [...problems, ...merged.problems] };
}
