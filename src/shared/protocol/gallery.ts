/**
 * The host <-> Media gallery protocol (videos and images). Like the chat's: one discriminated union per direction,
 * keyed on `type`, under the same validation rule (index.ts): the host parses what the gallery
 * sends, the gallery only checks the shape (guard.ts). The host queues until `webview/ready`, then sends the whole list; every change sends
 * the list again (it holds at most a few dozen tasks). Local files cross only as webview URIs.
 */
import * as z from '../zod';

const text = z.string().check(z.maxLength(20_000));
const key = z.string().check(z.minLength(1), z.maxLength(200));

export const galleryTaskSchema = z.object({
  key,
  videoId: z.optional(text),
  prompt: text,
  model: text,
  seconds: z.optional(z.number()),
  aspectRatio: z.optional(text),
  resolution: z.optional(text),
  /** Labels of the reference images (workspace paths or URLs). */
  images: z.array(text),
  /** The record's state and its words ("in_progress 50%", "failed"). */
  state: z.enum(['creating', 'polling', 'timed_out', 'paused', 'downloading', 'saved', 'failed', 'error']),
  stateLabel: text,
  progress: z.optional(z.number()),
  /** Failed or error: the gateway's reason and what it means (spec 3 and 7). */
  failure: z.optional(text),
  /** The estimate beside what the gateway charged ("Estimate ¥0.80 · charged ¥0.80 (from …)"), or the quote. */
  cost: z.optional(text),
  /** A failed task that was charged anyway: said on its own line. */
  costFlag: z.optional(text),
  createdAt: z.number(),
  finishedAt: z.optional(z.number()),
  /** Workspace-relative path of the saved MP4. */
  file: z.optional(text),
  /** The MP4 as a webview URI (only while the file exists). */
  src: z.optional(text),
  /** The cached poster frame as a webview URI. */
  poster: z.optional(text),
  running: z.boolean(),
  canResume: z.boolean(),
});
export type GalleryTask = z.infer<typeof galleryTaskSchema>;

/** A saved image of the images output folder (Media gallery). */
export const galleryImageSchema = z.object({
  /** Its file name in the output folder: what the page sends back with an action. */
  name: key,
  /** Workspace-relative path. */
  file: text,
  /** The image as a webview URI. */
  src: text,
  prompt: z.optional(text),
  model: z.optional(text),
  /** generate, edit or chat (the sidecar's). */
  operation: z.optional(text),
  size: z.optional(text),
  bytes: z.number(),
  createdAt: z.number(),
});
export type GalleryImage = z.infer<typeof galleryImageSchema>;

/** The remix form's fields (also what "use this frame" opens with). */
export const galleryFormSchema = z.object({
  model: text,
  prompt: text,
  seconds: z.optional(z.number()),
  aspectRatio: z.optional(text),
  resolution: z.optional(text),
  /** Workspace paths or HTTPS URLs of reference images. */
  images: z.array(text),
  /** Models to offer. */
  models: z.array(text),
  /** The task this form came from. */
  from: z.optional(key),
});
export type GalleryForm = z.infer<typeof galleryFormSchema>;

export const galleryHostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('gallery/state'),
    tasks: z.array(galleryTaskSchema),
    /** The images output folder's images, newest first (absent: the page shows none). */
    images: z.optional(z.array(galleryImageSchema)),
  }),
  z.object({ type: z.literal('gallery/form'), form: galleryFormSchema }),
  /** A form submit or action ended; `error` says why nothing started; `closeForm` after a start. */
  z.object({ type: z.literal('gallery/notice'), text, error: z.boolean(), closeForm: z.optional(z.boolean()) }),
  /** `GALLERY_STRINGS` in the display language, sent first on ready. */
  z.object({ type: z.literal('gallery/strings'), strings: z.record(z.string(), z.string()) }),
]);
export type GalleryHostMessage = z.infer<typeof galleryHostMessageSchema>;

export const GALLERY_ACTIONS = [
  'open',
  'reveal',
  'openExternal',
  'copyId',
  'rerun',
  'remix',
  'deleteFile',
  'remove',
  'resume',
  'stop',
] as const;
export type GalleryAction = (typeof GALLERY_ACTIONS)[number];

export const GALLERY_IMAGE_ACTIONS = ['open', 'reveal', 'edit', 'deleteFile'] as const;
export type GalleryImageAction = (typeof GALLERY_IMAGE_ACTIONS)[number];

const pngDataUrl = z
  .string()
  .check(z.maxLength(20 * 1024 * 1024), z.regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/));

export const galleryWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('webview/ready') }),
  z.object({ type: z.literal('gallery/action'), key, action: z.enum(GALLERY_ACTIONS) }),
  /** An image card's action; the host finds the image by name in the list it last sent. */
  z.object({ type: z.literal('gallery/imageAction'), name: key, action: z.enum(GALLERY_IMAGE_ACTIONS) }),
  /** A poster frame captured in the webview, for the host's cache. */
  z.object({ type: z.literal('gallery/poster'), key, dataUrl: pngDataUrl }),
  /** "Use this frame": the current frame as a PNG, at `time` seconds. */
  z.object({ type: z.literal('gallery/frame'), key, time: z.number(), dataUrl: pngDataUrl }),
  /** The remix form's submit: a new (billed) task, after the host's confirmation. */
  z.object({ type: z.literal('gallery/generate'), form: galleryFormSchema }),
]);
export type GalleryWebviewMessage = z.infer<typeof galleryWebviewMessageSchema>;
