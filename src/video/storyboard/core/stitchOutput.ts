/**
 * Where a board's exports go and what the host accepts to write there. The outputs folder is the
 * board's own (`x.storyboard.json` -> `x.storyboard/`); the page only names the kind of export,
 * never a path, and the bytes must look like what the kind says. An existing file is never
 * replaced: the next free numbered name is used.
 */
import * as path from 'node:path';

export const exportKinds = ['film', 'reencoded', 'gif'] as const;
export type ExportKind = (typeof exportKinds)[number];

/** The largest export the host writes (a README GIF or a short film are far smaller). */
export const MAX_EXPORT_BYTES = 512 * 1024 * 1024;

const BASE: Record<ExportKind, string> = { film: 'film.mp4', reencoded: 'film-reencoded.mp4', gif: 'film.gif' };

export function isExportKind(v: unknown): v is ExportKind {
  return typeof v === 'string' && (exportKinds as readonly string[]).includes(v);
}

/** The board's outputs folder: its path without `.json`. */
export function outputsFolder(boardPath: string): string {
  if (!boardPath.endsWith('.storyboard.json'))
    throw new Error(`${path.basename(boardPath)} is not a *.storyboard.json file`);
  return boardPath.slice(0, -'.json'.length);
}

/** A free path for `kind` in the board's outputs folder: film.mp4, then film-2.mp4, film-3.mp4... */
export function exportTarget(boardPath: string, kind: ExportKind, exists: (p: string) => boolean): string {
  const folder = outputsFolder(boardPath);
  const base = BASE[kind];
  const ext = path.extname(base);
  const stem = base.slice(0, -ext.length);
  for (let n = 1; n < 1000; n++) {
    const candidate = path.join(folder, n === 1 ? base : `${stem}-${n}${ext}`);
    if (!exists(candidate)) return candidate;
  }
  throw new Error(`There are already 999 exports named ${base} in ${path.basename(folder)}.`);
}

/** True when `target` is `folder` itself or inside it (after resolving `..`). */
export function isInside(folder: string, target: string): boolean {
  const rel = path.relative(path.resolve(folder), path.resolve(target));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Why `bytes` cannot be saved as `kind`, or undefined when they can. */
export function refuseBytes(kind: ExportKind, bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return 'the export is empty';
  if (bytes.length > MAX_EXPORT_BYTES) return `the export is larger than ${MAX_EXPORT_BYTES / 1024 / 1024} MB`;
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (kind === 'gif') return /^GIF8[79]a$/.test(ascii(0, 6)) ? undefined : 'the export is not a GIF';
  return ascii(4, 8) === 'ftyp' ? undefined : 'the export is not an MP4';
}
