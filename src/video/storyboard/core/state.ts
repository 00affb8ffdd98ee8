/**
 * What a board has generated, recorded beside it: `x.storyboard.state.json` (per shot: each take's
 * task key, gateway id, state and file) and the clips in `x.storyboard/`. Committing the board, the
 * state file and the folder reproduces the film. The state file comes from the repository too, so
 * it is read as a claim: files are bare names inside the outputs folder, ids are checked, and a
 * take is only followed when this window's video manager knows its task key (see the editor).
 */
import * as path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import * as z from '../../../shared/zod';
import { MAX_TAKES, SHOT_ID } from './board';

export const TAKE_FILE = /^[A-Za-z0-9_-]{1,40}-take[1-9]\.mp4$/;

export const takeStates = ['creating', 'running', 'saved', 'failed'] as const;

export const takeSchema = z.object({
  take: z.number().check(z.int(), z.gte(1), z.lte(MAX_TAKES)),
  /** The video manager's key of the task (known before the POST). */
  taskKey: z.optional(z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/))),
  /** The gateway's id, once it answered. */
  videoId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,200}$/))),
  state: z.enum(takeStates),
  /** The clip's name inside the outputs folder. */
  file: z.optional(z.string().check(z.regex(TAKE_FILE))),
  /** What the take was generated from, so a changed shot can say its clip is older. */
  prompt: z.optional(z.string().check(z.maxLength(4000))),
  model: z.optional(z.string().check(z.maxLength(200))),
  seconds: z.optional(z.number()),
  error: z.optional(z.string().check(z.maxLength(2000))),
});
export type TakeRecord = z.infer<typeof takeSchema>;

export const stateSchema = z.object({
  v: z.literal(1),
  shots: z.record(
    z.string().check(z.regex(SHOT_ID)),
    z.object({
      takes: z.array(takeSchema).check(z.maxLength(MAX_TAKES)),
      /** The file of the chosen take, as the stitch reads it. */
      chosen: z.optional(z.string().check(z.regex(TAKE_FILE))),
    }),
  ),
});
export type BoardState = z.infer<typeof stateSchema>;

export const emptyState = (): BoardState => ({ v: 1, shots: {} });

/** `x.storyboard.json` -> `x.storyboard.state.json`. */
export function statePathFor(boardPath: string): string {
  return boardPath.replace(/\.storyboard\.json$/i, '.storyboard.state.json');
}

/** `x.storyboard.json` -> the folder `x.storyboard/` its clips go to. */
export function outputsDirFor(boardPath: string): string {
  return boardPath.replace(/\.storyboard\.json$/i, '.storyboard');
}

export function takeFileName(shotId: string, take: number): string {
  return `${shotId}-take${take}.mp4`;
}

/** A take's clip as an absolute path (the name is checked again: never a path out of the folder). */
export function takePath(boardPath: string, file: string): string {
  if (!TAKE_FILE.test(file)) throw new Error(`"${file}" is not a take file name`);
  return path.join(outputsDirFor(boardPath), file);
}

/** Reads a state file; text that is not a valid state gives `error` and an empty state (the file is kept). */
export function parseState(text: string | undefined): { state: BoardState; error?: string } {
  if (text === undefined || text.trim() === '') return { state: emptyState() };
  const errors: ParseError[] = [];
  const raw: unknown = parseJsonc(text, errors, { disallowComments: true });
  if (errors.length) return { state: emptyState(), error: 'the state file is not valid JSON' };
  const r = stateSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    return { state: emptyState(), error: `${i?.path.join('.') ?? ''}: ${i?.message ?? 'invalid'}` };
  }
  return { state: r.data };
}

export function printState(state: BoardState): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

/** The record of one take (undefined: never started). */
export function takeOf(state: BoardState, shotId: string, take: number): TakeRecord | undefined {
  return state.shots[shotId]?.takes.find((t) => t.take === take);
}

/** A new state with `record` replacing the take of the same number (the input is untouched). */
export function withTake(state: BoardState, shotId: string, record: TakeRecord): BoardState {
  const shot = state.shots[shotId] ?? { takes: [] };
  const takes = [...shot.takes.filter((t) => t.take !== record.take), record].sort((a, b) => a.take - b.take);
  return { ...state, shots: { ...state.shots, [shotId]: { ...shot, takes } } };
}

/** A new state with the chosen take's file noted for each shot (what the stitch joins, in order). */
export function withChosen(state: BoardState, chosen: { id: string; take: number }[]): BoardState {
  const shots = { ...state.shots };
  for (const c of chosen) {
    const s = shots[c.id];
    if (!s) continue;
    const file = s.takes.find((t) => t.take === c.take && t.state === 'saved')?.file;
    const { chosen: _old, ...rest } = s;
    shots[c.id] = file ? { ...rest, chosen: file } : rest;
  }
  return { ...state, shots };
}
