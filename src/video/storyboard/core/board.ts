/**
 * The storyboard file (`*.storyboard.json`): a title, defaults and shots in order. The file lives
 * in the repository and may come from anyone, so everything is bounded here (shots, takes, images,
 * text) and a board that does not parse is reported with its position and never rewritten.
 * The JSON schema the editor validates with (`media/storyboard.schema.json`) states the same rules.
 */
import * as l10n from '@vscode/l10n';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import * as z from '../../../shared/zod';

export const MAX_SHOTS = 40;
export const MAX_TAKES = 4;
export const MAX_IMAGES = 7;
export const MAX_PROMPT = 4000;
export const SHOT_ID = /^[A-Za-z0-9_-]{1,40}$/;

const shortText = z.string().check(z.minLength(1), z.maxLength(200));

/**
 * A keyframe: an image generated from its own prompt (through the images API, saved in the images
 * folder) that a shot starts or ends on. `image` is set once it is made (or by the user): a path
 * relative to the workspace folder or a public HTTPS URL, checked like any image of the board.
 */
export const keyframeSchema = z.object({
  prompt: z.string().check(z.minLength(1), z.maxLength(MAX_PROMPT)),
  /** The image model; the user's last image model when not set. */
  model: z.optional(shortText),
  image: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
});
export type Keyframe = z.infer<typeof keyframeSchema>;

export const shotSchema = z.object({
  id: z.string().check(z.regex(SHOT_ID, 'an id is 1-40 letters, digits, "-" or "_"')),
  prompt: z.string().check(z.maxLength(MAX_PROMPT)),
  model: z.optional(shortText),
  seconds: z.optional(z.number().check(z.int(), z.positive(), z.lte(60))),
  resolution: z.optional(shortText),
  aspectRatio: z.optional(shortText),
  /** Workspace-relative paths or HTTPS URLs. */
  images: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.maxLength(MAX_IMAGES))),
  continueFrom: z.optional(z.literal('previous')),
  /** The frame the shot starts on, generated from its prompt (instead of continueFrom). */
  firstFrame: z.optional(keyframeSchema),
  /** The frame the shot ends on, where the model's catalog family takes a last frame. */
  lastFrame: z.optional(keyframeSchema),
  takes: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_TAKES))),
  /** 1-based. */
  chosenTake: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_TAKES))),
});
export type Shot = z.infer<typeof shotSchema>;

export const boardSchema = z.object({
  $schema: z.optional(z.string()),
  title: z.string().check(z.maxLength(200)),
  defaults: z.optional(
    z.object({
      model: z.optional(shortText),
      seconds: z.optional(z.number().check(z.int(), z.positive(), z.lte(60))),
      resolution: z.optional(shortText),
      aspectRatio: z.optional(shortText),
    }),
  ),
  shots: z.array(shotSchema).check(z.maxLength(MAX_SHOTS)),
});
export type Board = z.infer<typeof boardSchema>;

export type BoardParse = { ok: true; board: Board } | { ok: false; error: string; syntax: boolean };

/** Line and column (1-based) of `offset` in `text`. */
export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** Parses a board's text: a syntax error names its line and column; a schema error names its path. */
export function parseBoard(text: string): BoardParse {
  const errors: ParseError[] = [];
  const raw: unknown = parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first) {
    const p = position(text, first.offset);
    return {
      ok: false,
      syntax: true,
      error: l10n.t('Line {0}, column {1}: {2}', p.line, p.column, printParseErrorCode(first.error)),
    };
  }
  const r = boardSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    const where = i?.path.length ? i.path.join('.') : l10n.t('the board');
    return { ok: false, syntax: false, error: l10n.t('{0}: {1}', where, i?.message ?? 'invalid') };
  }
  const seen = new Set<string>();
  for (const [n, s] of r.data.shots.entries()) {
    if (seen.has(s.id))
      return { ok: false, syntax: false, error: l10n.t('Shot {0}: the id "{1}" is used twice', n + 1, s.id) };
    seen.add(s.id);
    if (s.chosenTake !== undefined && s.chosenTake > (s.takes ?? 1))
      return {
        ok: false,
        syntax: false,
        error: l10n.t('Shot {0}: chosenTake {1} is more than its {2} take(s)', n + 1, s.chosenTake, s.takes ?? 1),
      };
  }
  return { ok: true, board: r.data };
}

/** The board as the file is written: two-space JSON and a final newline, keys in a stable order. */
export function printBoard(board: Board): string {
  return `${JSON.stringify(board, null, 2)}\n`;
}

/** The settings a shot is generated with: its own, else the board's defaults, else the fallbacks. */
export function effectiveShot(
  board: Board,
  shot: Shot,
  fallback: { model: string; seconds: number; resolution: string; aspectRatio: string },
): { model: string; seconds: number; resolution: string; aspectRatio: string; takes: number; chosenTake: number } {
  const d = board.defaults ?? {};
  return {
    model: shot.model ?? d.model ?? fallback.model,
    seconds: shot.seconds ?? d.seconds ?? fallback.seconds,
    resolution: shot.resolution ?? d.resolution ?? fallback.resolution,
    aspectRatio: shot.aspectRatio ?? d.aspectRatio ?? fallback.aspectRatio,
    takes: shot.takes ?? 1,
    chosenTake: shot.chosenTake ?? 1,
  };
}

/** A fresh shot id not used on the board (`shot-N`). */
export function newShotId(board: Board): string {
  const used = new Set(board.shots.map((s) => s.id));
  for (let n = board.shots.length + 1; ; n++) if (!used.has(`shot-${n}`)) return `shot-${n}`;
}

/**
 * The editor's keyframe prompt as a shot patch: '' removes the keyframe; a changed prompt drops the
 * old image (it was made from the other prompt) and keeps the model.
 */
export function keyframePatch(shot: Shot | undefined, end: 'firstFrame' | 'lastFrame', prompt: string): Partial<Shot> {
  const p = prompt.trim();
  if (!p) return { [end]: undefined };
  const old = shot?.[end];
  return { [end]: old && old.prompt === p ? old : { ...(old?.model ? { model: old.model } : {}), prompt: p } };
}

/** The edits the editor offers; each returns a new board (the input is untouched). */
export type BoardEdit =
  | { kind: 'add'; after?: string; shot?: Partial<Shot> }
  | { kind: 'duplicate'; id: string }
  | { kind: 'delete'; id: string }
  | { kind: 'move'; id: string; to: number }
  | { kind: 'choose'; id: string; take: number }
  | { kind: 'update'; id: string; patch: Partial<Omit<Shot, 'id'>> };

export function applyEdit(board: Board, edit: BoardEdit): Board {
  const shots = [...board.shots];
  const at = (id: string) => {
    const i = shots.findIndex((s) => s.id === id);
    if (i < 0) throw new Error(l10n.t('No shot "{0}" on the board.', id));
    return i;
  };
  switch (edit.kind) {
    case 'add': {
      if (shots.length >= MAX_SHOTS) throw new Error(l10n.t('A board holds at most {0} shots.', MAX_SHOTS));
      const shot: Shot = { prompt: '', ...edit.shot, id: newShotId(board) };
      shots.splice(edit.after === undefined ? shots.length : at(edit.after) + 1, 0, shot);
      break;
    }
    case 'duplicate': {
      if (shots.length >= MAX_SHOTS) throw new Error(l10n.t('A board holds at most {0} shots.', MAX_SHOTS));
      const i = at(edit.id);
      const { chosenTake: _chosen, ...rest } = shots[i] as Shot;
      shots.splice(i + 1, 0, { ...rest, id: newShotId(board) });
      break;
    }
    case 'delete':
      shots.splice(at(edit.id), 1);
      break;
    case 'move': {
      const [s] = shots.splice(at(edit.id), 1);
      shots.splice(Math.max(0, Math.min(shots.length, edit.to)), 0, s as Shot);
      break;
    }
    case 'choose': {
      const i = at(edit.id);
      const s = shots[i] as Shot;
      if (edit.take < 1 || edit.take > (s.takes ?? 1))
        throw new Error(l10n.t('Shot "{0}" has no take {1}.', s.id, edit.take));
      shots[i] = { ...s, chosenTake: edit.take };
      break;
    }
    case 'update': {
      const i = at(edit.id);
      const next = shotSchema.safeParse({ ...shots[i], ...edit.patch });
      if (!next.success) throw new Error(next.error.issues[0]?.message ?? 'invalid shot');
      shots[i] = next.data;
      break;
    }
  }
  return { ...board, shots };
}
