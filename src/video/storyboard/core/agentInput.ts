/**
 * The storyboard tools' inputs (chat tools and `vscode.lm` tools share them): create a board from
 * the shots the model wrote for a description, add a shot, generate. A path the model gives is a
 * workspace-relative `*.storyboard.json` and nothing else; the editor side checks it again against
 * the real workspace folders (links included) before writing.
 */
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { protectedSegment, windowsAliasSegment } from '../../../files/insideWorkspace';
import * as z from '../../../shared/zod';
import { MAX_PROMPT, MAX_SHOTS, MAX_TAKES, type Board, type Shot } from './board';

const shotInput = z.object({
  prompt: z.string().check(z.minLength(1), z.maxLength(MAX_PROMPT)),
  seconds: z.optional(z.number().check(z.int(), z.positive(), z.lte(60))),
  model: z.optional(z.string().check(z.maxLength(200))),
  continueFromPrevious: z.optional(z.boolean()),
  images: z.optional(z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(7))),
  takes: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_TAKES))),
});
const relPath = z.string().check(z.minLength(1), z.maxLength(500));

export const createInput = z.object({
  path: relPath,
  title: z.string().check(z.minLength(1), z.maxLength(200)),
  model: z.optional(z.string().check(z.maxLength(200))),
  resolution: z.optional(z.string().check(z.maxLength(50))),
  aspectRatio: z.optional(z.string().check(z.maxLength(50))),
  shots: z.array(shotInput).check(z.minLength(1), z.maxLength(MAX_SHOTS)),
});
export const addShotInput = z.object({
  path: relPath,
  after: z.optional(z.string().check(z.maxLength(40))),
  shot: shotInput,
});
export const generateInput = z.object({ path: relPath, shot: z.optional(z.string().check(z.maxLength(40))) });

/**
 * Why `p` cannot name a board: only workspace-relative `*.storyboard.json` paths that stay inside,
 * and never in `.git/` or `.vscode/` nor through a name Windows reads as another (`.git.`,
 * `GIT~1`, `x:stream`): what the chat's file tools refuse, refused here too.
 */
export function boardPathProblem(p: string): string | undefined {
  if (p.includes('\0')) return l10n.t('the path contains a NUL character');
  if (!/\.storyboard\.json$/i.test(p)) return l10n.t('a board path ends in .storyboard.json');
  if (path.isAbsolute(p) || /^[a-z]:/i.test(p) || p.startsWith('\\'))
    return l10n.t('give a path relative to the workspace folder');
  const n = path.posix.normalize(p.replace(/\\/g, '/'));
  if (n === '..' || n.startsWith('../')) return l10n.t('the path leads out of the workspace');
  const inside = protectedSegment(n);
  if (inside) return l10n.t('{0}/ holds settings and hooks that run code: boards are not kept there', inside);
  const alias = windowsAliasSegment(n);
  if (alias) return l10n.t('"{0}" would name another file on Windows', alias);
  return undefined;
}

export function toShot(input: z.infer<typeof shotInput>, id: string): Shot {
  return {
    id,
    prompt: input.prompt,
    ...(input.model ? { model: input.model } : {}),
    ...(input.seconds ? { seconds: input.seconds } : {}),
    ...(input.images?.length ? { images: input.images } : {}),
    ...(input.continueFromPrevious ? { continueFrom: 'previous' as const } : {}),
    ...(input.takes && input.takes > 1 ? { takes: input.takes } : {}),
  };
}

export function boardFromInput(input: z.infer<typeof createInput>): Board {
  const defaults = {
    ...(input.model ? { model: input.model } : {}),
    ...(input.resolution ? { resolution: input.resolution } : {}),
    ...(input.aspectRatio ? { aspectRatio: input.aspectRatio } : {}),
  };
  return {
    title: input.title,
    ...(Object.keys(defaults).length ? { defaults } : {}),
    shots: input.shots.map((s, i) => toShot(s, `shot-${i + 1}`)),
  };
}

/** The first problem of `raw` against `schema`, as a sentence the model can act on. */
export function parseInput<T>(
  schema: z.ZodMiniType<T>,
  raw: unknown,
): { ok: true; value: T } | { ok: false; error: string } {
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const i = r.error.issues[0];
  return { ok: false, error: `${i?.path.join('.') || 'input'}: ${i?.message ?? 'invalid'}` };
}
