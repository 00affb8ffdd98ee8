/**
 * The host <-> storyboard editor protocol, under the galleries' rule: the host parses what the
 * page sends (zod), the page only checks the shape (guard.ts). The host sends the whole board
 * view after every change (a board holds at most 40 shots). A take's card is the gallery's task
 * shape, so the page reuses the gallery's card. Clip bytes for the last frame travel as a
 * Uint8Array in a message: the page's CSP allows no fetch.
 */
import * as z from '../zod';
import type { GalleryTask } from './gallery';

const text = z.string().check(z.maxLength(20_000));
const id = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/));

/** One shot as its card shows it. */
export interface ShotView {
  id: string;
  prompt: string;
  /** "vendor-image-video · 4 s · 16:9 · 720p" */
  settings: string;
  continues: boolean;
  images: string[];
  /** The keyframes it starts and ends on (the image once made). */
  firstFrame?: { prompt: string; image?: string };
  lastFrame?: { prompt: string; image?: string };
  /** The model's catalog family takes a last frame (the editor offers one). */
  endFrame?: boolean;
  takes: number;
  chosenTake: number;
  /** What stops this shot, each naming the rule or the file (empty: it can run). */
  problems: string[];
  /** "waiting for shot 1", "running", "saved", "failed: …" */
  status: { kind: 'idle' | 'waiting' | 'running' | 'saved' | 'failed' | 'blocked'; text: string };
  /** One per take that was started, in take order. */
  takeCards: (GalleryTask & { take: number })[];
  /** The take numbers that have a saved clip. */
  savedTakes: number[];
}

export interface BoardView {
  title: string;
  /** The board does not parse: the text editor is the place to fix it (nothing is written). */
  error?: string;
  shots: ShotView[];
  running: boolean;
  /** "4 clips · 16 s · estimated ¥3.20" when the spend feature can price them. */
  price?: string;
  /** A state file that could not be read (kept as it is). */
  stateError?: string;
}

export type StoryboardHostMessage =
  | { type: 'board/state'; view: BoardView }
  | { type: 'board/strings'; strings: Record<string, string> }
  | { type: 'board/notice'; text: string; error: boolean }
  /** The bytes of a saved clip whose last frame the host needs (answered by `board/frame`). */
  | { type: 'board/clip'; requestId: number; bytes: Uint8Array }
  /** The answer to `board/stitch`, `board/saveExport` or `board/readTake` (same `requestId`). */
  | { type: 'board/exportReply'; requestId: number; reply: ExportReply };

/** What the host answers the export panel: the stitch, a save, or a chosen take's bytes. */
export type ExportReply =
  | { ok: true; file: string; durationSeconds: number }
  | { ok: true; file: string }
  | { ok: true; bytes: Uint8Array }
  | { ok: false; kind: 'mismatch'; message: string; index: number; parameter: string }
  | { ok: false; kind: 'undecodable'; message: string; indexes: number[] }
  | { ok: false; kind: 'refused'; message: string }
  | { ok: false; message: string };

const editSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('add'), after: z.optional(id) }),
  z.object({ kind: z.literal('duplicate'), id }),
  z.object({ kind: z.literal('delete'), id }),
  z.object({ kind: z.literal('move'), id, to: z.number().check(z.int(), z.gte(0), z.lte(100)) }),
  z.object({ kind: z.literal('choose'), id, take: z.number().check(z.int(), z.gte(1), z.lte(4)) }),
  z.object({
    kind: z.literal('update'),
    id,
    patch: z.object({
      prompt: z.optional(z.string().check(z.maxLength(4000))),
      /** A keyframe's image prompt ('' removes the keyframe). */
      firstFrame: z.optional(z.string().check(z.maxLength(4000))),
      lastFrame: z.optional(z.string().check(z.maxLength(4000))),
    }),
  }),
]);

export const STORYBOARD_TAKE_ACTIONS = ['open', 'reveal', 'copyId', 'resume', 'stop'] as const;

const requestId = z.number().check(z.int(), z.gte(0));
/** Most a page-made export (re-encoded film or GIF) may weigh; the host checks `bytes` itself (a Uint8Array). */
export const MAX_EXPORT_BYTES = 200 * 1024 * 1024;

const pngDataUrl = z
  .string()
  .check(z.maxLength(40 * 1024 * 1024), z.regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/));

export const storyboardWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('webview/ready') }),
  z.object({ type: z.literal('board/edit'), edit: editSchema }),
  /** Generate one shot (its missing or failed takes) or, without `id`, every shot. */
  z.object({ type: z.literal('board/generate'), id: z.optional(id) }),
  z.object({
    type: z.literal('board/takeAction'),
    id,
    take: z.number().check(z.int(), z.gte(1), z.lte(4)),
    action: z.enum(STORYBOARD_TAKE_ACTIONS),
  }),
  /** The answer to `board/clip`: the last frame, or why it could not be decoded. */
  z.object({
    type: z.literal('board/frame'),
    requestId: z.number(),
    dataUrl: z.optional(pngDataUrl),
    error: z.optional(text),
  }),
  /** Join the chosen takes (the host picks the files from the board and its state, in order). */
  z.object({ type: z.literal('board/stitch'), requestId }),
  /** Save what the page made; the page names a kind, never a path. */
  z.object({ type: z.literal('board/saveExport'), requestId, kind: z.enum(['reencoded', 'gif']), bytes: z.unknown() }),
  /** The bytes of a shot's chosen take, for the page's re-encode or GIF (its CSP allows no fetch). */
  z.object({ type: z.literal('board/readTake'), requestId, id }),
]);
export type StoryboardWebviewMessage = z.infer<typeof storyboardWebviewMessageSchema>;
