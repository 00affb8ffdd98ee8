/**
 * The video host: task creation with the spec's validation (2.4, 7), time-driven progress,
 * status in the current (2.6) and legacy (2.7) formats, and MP4 content.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FaultEffects } from './faults';
import { BodyWriter, byteRange, faultHeaders, httpError, sendJson } from './http';
import { VIDEO_MODELS } from './models';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Current-format states (spec 3). */
export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'expired';

type Outcome = 'completed' | 'failed' | 'cancelled' | 'expired' | 'never';

interface Task {
  id: string;
  requestId: string;
  taskId: string;
  model: string;
  prompt: string;
  createdMs: number;
  seconds: number;
  aspectRatio: string;
  resolution: string;
  images: number;
  outcome: Outcome;
  failReason: string;
  /** Set by completeVideo/failVideo: overrides the timeline. */
  forced?: { status: 'completed' | 'failed'; reason: string };
  /** The gateway has told the account this task failed (once). */
  failedNoted?: boolean;
}

interface State {
  status: VideoStatus;
  progress: number;
  failReason: string;
}

const ASPECTS: Record<string, readonly string[]> = {
  'vendor-image-video': ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'],
  'vendor-video-1.5': ['16:9', '9:16'],
};

function bad(message: string, param: string | null = null, code = 'invalid_request'): never {
  throw httpError(400, 'invalid_request_error', code, message, param);
}

let fixture: Buffer | undefined;

/**
 * The sample MP4, read from disk on first use. The second path covers the gateway bundled
 * somewhere else (its `__dirname` is then not this folder) but run from the repository root.
 */
function sampleMp4(): Buffer {
  if (fixture) return fixture;
  const candidates = [
    join(__dirname, 'fixtures', 'sample.mp4'),
    join(process.cwd(), 'test', 'gateway', 'fixtures', 'sample.mp4'),
  ];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw httpError(500, 'server_error', 'fixture_missing', 'the gateway cannot find fixtures/sample.mp4');
  fixture = readFileSync(found);
  return fixture;
}

const clips = new Map<string, Buffer>();

/**
 * The storyboard clips of fixtures/make-clips.sh: `clip-1s|2s|3s.mp4` share their codec
 * parameters (they join without re-encoding), `clip-other.mp4` does not, `clip-truncated.mp4`
 * cannot be decoded. Read on first use, like the sample.
 */
function clipMp4(name: string): Buffer {
  const hit = clips.get(name);
  if (hit) return hit;
  const candidates = [join(__dirname, 'fixtures', name), join(process.cwd(), 'test', 'gateway', 'fixtures', name)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw httpError(500, 'server_error', 'fixture_missing', `the gateway cannot find fixtures/${name}`);
  const bytes = readFileSync(found);
  clips.set(name, bytes);
  return bytes;
}

/**
 * Which MP4 a completed task serves: `#othercodec` in the prompt gives a clip with other codec
 * parameters, `#undecodable` a cut-off MP4, 1 to 3 seconds the storyboard clip of that length;
 * anything else the sample, as before.
 */
export function clipFor(t: { prompt: string; seconds: number }): Buffer {
  if (/(^|\s)#othercodec(\s|$)/.test(t.prompt)) return clipMp4('clip-other.mp4');
  if (/(^|\s)#undecodable(\s|$)/.test(t.prompt)) return clipMp4('clip-truncated.mp4');
  if (t.seconds >= 1 && t.seconds <= 3) return clipMp4(`clip-${t.seconds}s.mp4`);
  return sampleMp4();
}

/** The header of a generated MP4 of `size` bytes: an `ftyp` box, then an `mdat` box that pads to the size. */
export function mp4Header(size: number): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isommp41', 16, 'latin1');
  const rest = size - 24;
  if (rest < 8) return ftyp.subarray(0, Math.max(0, size));
  if (rest <= 0xffffffff) {
    const mdat = Buffer.alloc(8);
    mdat.writeUInt32BE(rest, 0);
    mdat.write('mdat', 4, 'latin1');
    return Buffer.concat([ftyp, mdat]);
  }
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(1, 0);
  mdat.write('mdat', 4, 'latin1');
  mdat.writeBigUInt64BE(BigInt(rest), 8);
  return Buffer.concat([ftyp, mdat]);
}

function checkImageUrl(url: unknown, param: string): string {
  if (typeof url !== 'string' || url.trim() === '')
    bad(`${param} must be a non-empty string`, param, 'invalid_image_url');
  if (url.startsWith('data:')) {
    if (!/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=\r\n]+$/i.test(url)) {
      bad(`${param} is not a complete base64 image data URL (data:image/…;base64,…)`, param, 'invalid_image_url');
    }
    return url;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad(`${param} is neither a URL nor a base64 data URL`, param, 'invalid_image_url');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    bad(`${param} must be a public HTTPS direct link or a base64 data URL`, param, 'invalid_image_url');
  }
  if (parsed.hostname.endsWith('.invalid')) {
    throw httpError(
      400,
      'invalid_request_error',
      'image_fetch_error',
      `failed to fetch reference image from ${parsed.hostname}: use a real direct link or base64`,
      param,
    );
  }
  return url;
}

function stringList(v: unknown, param: string): string[] {
  if (!Array.isArray(v)) bad(`${param} must be an array of strings`, param);
  return v.map((u, i) => checkImageUrl(u, `${param}[${i}]`));
}

/** Every video task of one gateway, advanced by the clock. */
export class VideoStore {
  private tasks: Task[] = [];
  /** Root of the other host (the chat host), where `contentUrl: "other-host"` links point. */
  otherUrl = '';

  constructor(
    private readonly stepMs: number,
    private readonly steps: number,
    /** Bills a created task (test/gateway/account.ts); relays charge at submission. */
    private readonly charge?: (model: string, seconds: number, id: string) => void,
    /** Told once when a task is first seen failed, cancelled or expired (a refund, if the account gives one). */
    private readonly failed?: (model: string, seconds: number, id: string) => void,
  ) {}

  reset(): void {
    this.tasks = [];
  }

  /** A task by any of its ids (id, request_id, task_id), so a client falling back per spec 2.5 still finds it. */
  find(anyId: string): Task | undefined {
    return this.tasks.find((t) => t.id === anyId || t.requestId === anyId || t.taskId === anyId);
  }

  /** Finish a task now as completed. False when the id is unknown. */
  complete(anyId: string): boolean {
    const t = this.find(anyId);
    if (!t) return false;
    t.forced = { status: 'completed', reason: '' };
    return true;
  }

  /** Finish a task now as failed with `reason`. False when the id is unknown. */
  fail(anyId: string, reason: string): boolean {
    const t = this.find(anyId);
    if (!t) return false;
    t.forced = { status: 'failed', reason };
    return true;
  }

  private state(t: Task, now = Date.now()): State {
    const st = this.timeline(t, now);
    if (!t.failedNoted && (st.status === 'failed' || st.status === 'cancelled' || st.status === 'expired')) {
      t.failedNoted = true;
      this.failed?.(t.model, t.seconds, t.id);
    }
    return st;
  }

  private timeline(t: Task, now: number): State {
    const s = this.steps;
    const lastProgress = Math.round(((s - 1) * 100) / s);
    if (t.forced) return { status: t.forced.status, progress: 100, failReason: t.forced.reason };
    const step = Math.floor((now - t.createdMs) / Math.max(1, this.stepMs));
    if (step < 1 && s > 0) return { status: 'queued', progress: 0, failReason: '' };
    if (t.outcome === 'never')
      return { status: 'in_progress', progress: Math.round((Math.min(step, s - 1) * 100) / s), failReason: '' };
    if (step < s) return { status: 'in_progress', progress: Math.round((step * 100) / s), failReason: '' };
    switch (t.outcome) {
      case 'completed':
        return { status: 'completed', progress: 100, failReason: '' };
      case 'failed':
        return { status: 'failed', progress: 100, failReason: t.failReason };
      default:
        return { status: t.outcome, progress: lastProgress, failReason: t.failReason };
    }
  }

  /** `POST /v1/videos/generations`. */
  async create(res: ServerResponse, body: unknown, fx: FaultEffects): Promise<void> {
    if (!isObj(body)) bad('request body must be a JSON object');
    if (typeof body.prompt !== 'string' || body.prompt.trim() === '') bad('prompt is required', 'prompt');
    const model = body.model;
    if (typeof model !== 'string' || model === '') bad('model field is required', 'model');
    if (!VIDEO_MODELS.some((m) => m.id === model)) {
      bad(
        `model field is required: ${JSON.stringify(model)} is not a video model (use vendor-image-video or vendor-video-1.5)`,
        'model',
      );
    }
    if (body.image_urls !== undefined && body.images !== undefined) {
      bad('image_urls and images must not be sent together (images is an alias of image_urls)', 'images');
    }
    if (body.input_reference !== undefined && body.reference_images !== undefined) {
      bad('input_reference and reference_images must not be sent together', 'reference_images');
    }
    const urls: string[] = [];
    if (body.image_urls !== undefined) urls.push(...stringList(body.image_urls, 'image_urls'));
    if (body.images !== undefined) urls.push(...stringList(body.images, 'images'));
    if (body.reference_images !== undefined) urls.push(...stringList(body.reference_images, 'reference_images'));
    if (body.input_reference !== undefined) {
      const ir = body.input_reference;
      const u = isObj(ir) ? (isObj(ir.image_url) ? ir.image_url.url : ir.image_url) : ir;
      urls.push(checkImageUrl(u, 'input_reference'));
    }
    if (model === 'vendor-video-1.5' && urls.length !== 1) {
      bad(`vendor-video-1.5 only supports exactly one reference image (got ${urls.length})`, 'image_urls');
    }
    if (urls.length > 7)
      bad(`vendor-image-video accepts at most 7 reference images (got ${urls.length})`, 'image_urls');

    let seconds = 4;
    if (body.seconds !== undefined && body.seconds !== null) {
      const n = typeof body.seconds === 'string' && /^\d+$/.test(body.seconds) ? Number(body.seconds) : body.seconds;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) bad('seconds must be a positive integer', 'seconds');
      if (n > 15) bad(`seconds must be at most 15 (got ${n})`, 'seconds');
      // Spec 2.4: several references are limited to 10 s, larger values are treated as 10.
      seconds = urls.length > 1 ? Math.min(n, 10) : n;
    }
    const aspectRatio = body.aspect_ratio ?? '16:9';
    if (typeof aspectRatio !== 'string' || !ASPECTS[model]!.includes(aspectRatio)) {
      bad(
        `aspect_ratio for ${model} must be one of ${ASPECTS[model]!.join(', ')} (got ${JSON.stringify(aspectRatio)})`,
        'aspect_ratio',
      );
    }
    const resolution = body.resolution ?? '720p';
    if (typeof resolution !== 'string' || !/^\d{3,4}p$/.test(resolution)) {
      bad(`resolution must look like 720p or 480p (got ${JSON.stringify(resolution)})`, 'resolution');
    }

    await this.start(res, { model, prompt: body.prompt, seconds, aspectRatio, resolution, urls }, fx);
  }

  /**
   * Starts a task whose request a family's check (videoFamilies.ts) already accepted: the unified
   * `/v1/video/generations` and the multipart `/v1/videos` of the catalog's families.
   */
  async createChecked(
    res: ServerResponse,
    t: { model: string; prompt: string; seconds: number; resolution: string; urls: string[] },
    fx: FaultEffects,
  ): Promise<void> {
    await this.start(res, { ...t, aspectRatio: '16:9' }, fx);
  }

  private async start(
    res: ServerResponse,
    t: { model: string; prompt: string; seconds: number; aspectRatio: string; resolution: string; urls: string[] },
    fx: FaultEffects,
  ): Promise<void> {
    const { model, prompt, seconds, aspectRatio, resolution, urls } = t;
    let outcome: Outcome = 'completed';
    let failReason = '';
    const failing = urls.find((u) => !u.startsWith('data:') && new URL(u).hostname.includes('fail-fetch'));
    if (failing) {
      outcome = 'failed';
      failReason = `image_fetch_error: failed to fetch reference image from ${new URL(failing).hostname}`;
    } else if (/(^|\s)#fail(\s|$)/.test(prompt)) {
      outcome = 'failed';
      failReason = 'generation failed: the prompt asked for it (#fail)';
    } else if (/(^|\s)#cancel(\s|$)/.test(prompt)) {
      outcome = 'cancelled';
      failReason = 'task cancelled';
    } else if (/(^|\s)#expire(\s|$)/.test(prompt)) {
      outcome = 'expired';
      failReason = 'task expired';
    } else if (/(^|\s)#never(\s|$)/.test(prompt)) {
      outcome = 'never';
    }
    const opaque = randomBytes(12).toString('hex');
    const task: Task = {
      id: `video_svc_v1_${opaque}`,
      requestId: `req_${randomBytes(8).toString('hex')}`,
      taskId: `task_${randomBytes(8).toString('hex')}`,
      model,
      prompt,
      createdMs: Date.now(),
      seconds,
      aspectRatio,
      resolution,
      images: urls.length,
      outcome,
      failReason,
    };
    this.tasks.push(task);
    this.charge?.(model, seconds, task.id);
    const ids: Json = { id: task.id, request_id: task.requestId, task_id: task.taskId };
    if (fx.createOnly) for (const k of Object.keys(ids)) if (k !== fx.createOnly) delete ids[k];
    await sendJson(
      res,
      200,
      {
        ...ids,
        object: 'video',
        model,
        status: 'queued',
        progress: 0,
        created_at: Math.floor(task.createdMs / 1000),
        seconds: String(seconds),
        size: resolution,
      },
      fx,
    );
  }

  private contentPath(t: Task, videoUrl: string, fx: FaultEffects): string {
    if (fx.contentUrl === 'other-host')
      return `${this.otherUrl}/files/videos/${t.id}.mp4?sig=${randomBytes(6).toString('hex')}`;
    const path = `/v1/videos/${t.id}/content`;
    return fx.contentUrl === 'absolute' ? `${videoUrl}${path}` : path;
  }

  private failProgress(st: State, fx: FaultEffects): number | string {
    const failed = st.status === 'failed' || st.status === 'cancelled' || st.status === 'expired';
    return failed && fx.progressOnFail !== undefined ? fx.progressOnFail : st.progress;
  }

  private currentFormat(t: Task, videoUrl: string, fx: FaultEffects): Json {
    const st = this.state(t);
    const out: Json = {
      id: t.id,
      request_id: t.requestId,
      object: 'video',
      model: t.model,
      status: st.status,
      progress: this.failProgress(st, fx),
      created_at: Math.floor(t.createdMs / 1000),
      seconds: String(t.seconds),
      size: t.resolution,
    };
    if (st.status === 'completed') {
      const url = this.contentPath(t, videoUrl, fx);
      out.completed_at = Math.floor((t.createdMs + this.steps * this.stepMs) / 1000);
      out.url = url;
      out.video_url = url;
      out.video = { duration: t.seconds, task_id: t.taskId, url };
    } else if (st.failReason) {
      out.error = { code: st.status === 'failed' ? 'generation_failed' : st.status, message: st.failReason };
      out.fail_reason = st.failReason;
    }
    return out;
  }

  private legacyFormat(t: Task, videoUrl: string, fx: FaultEffects): Json {
    const st = this.state(t);
    const status =
      { queued: 'QUEUED', in_progress: 'IN_PROGRESS', completed: 'SUCCESS' }[st.status as string] ?? 'FAILURE';
    const p = this.failProgress(st, fx);
    return {
      code: 'success',
      message: '',
      data: {
        task_id: t.taskId,
        status,
        progress: typeof p === 'number' ? `${p}%` : p,
        result_url: st.status === 'completed' ? this.contentPath(t, videoUrl, fx) : '',
        fail_reason: st.failReason,
      },
    };
  }

  private need(anyId: string): Task {
    const t = this.find(anyId);
    if (!t) throw httpError(404, 'invalid_request_error', 'video_not_found', `no video task with id ${anyId}`, 'id');
    return t;
  }

  /** `GET /v1/videos/{id}` (current format unless `statusFormat: "legacy"`). */
  async status(res: ServerResponse, anyId: string, videoUrl: string, fx: FaultEffects): Promise<void> {
    const t = this.need(anyId);
    const body =
      fx.statusFormat === 'legacy' ? this.legacyFormat(t, videoUrl, fx) : this.currentFormat(t, videoUrl, fx);
    await sendJson(res, 200, body, fx);
  }

  /** Legacy `GET /v1/video/generations/{task_id}`. */
  async legacyStatus(res: ServerResponse, anyId: string, videoUrl: string, fx: FaultEffects): Promise<void> {
    await sendJson(res, 200, this.legacyFormat(this.need(anyId), videoUrl, fx), fx);
  }

  /**
   * `GET /v1/videos/{id}/content`: the MP4, or what the content faults ask for. Under
   * `acceptRanges` it says `Accept-Ranges: bytes` with a strong ETag and answers `Range: bytes=N-`
   * (or `N-M`) with a 206 of those bytes, unless `If-Range` names another version (then 200, whole).
   */
  async content(
    res: ServerResponse,
    anyId: string,
    videoUrl: string,
    fx: FaultEffects,
    req: { range?: string; ifRange?: string } = {},
  ): Promise<void> {
    const t = this.need(anyId);
    const st = this.state(t);
    if (fx.contentJson) {
      await sendJson(res, 200, this.currentFormat(t, videoUrl, fx), fx);
      return;
    }
    if (st.status !== 'completed') {
      throw httpError(
        400,
        'invalid_request_error',
        'video_not_ready',
        `video ${t.id} has no content: its status is ${st.status}`,
        'id',
      );
    }
    const clip = clipFor(t);
    const size = fx.contentSize ?? clip.length;
    const etag = `"${t.id}-${size}"`;
    const asked = fx.acceptRanges ? byteRange(req.range, size) : undefined;
    const partial = asked !== undefined && (req.ifRange === undefined || req.ifRange === etag);
    const [from, to] = partial ? asked : [0, size - 1];
    const ranges = fx.acceptRanges ? { 'accept-ranges': 'bytes', etag } : {};
    // wrongContentRange: a broken relay that answers a range with the start of the file.
    const shownFrom = fx.wrongContentRange ? 0 : from;
    res.writeHead(partial ? 206 : 200, {
      'content-type': fx.contentType ?? 'video/mp4',
      'content-length': String(to - from + 1),
      ...ranges,
      ...(partial ? { 'content-range': `bytes ${shownFrom}-${shownFrom + to - from}/${size}` } : {}),
      ...faultHeaders(fx),
    });
    const cut = [fx.dropAfterBytes, fx.contentTruncate].filter((n): n is number => n !== undefined);
    const w = new BodyWriter(res, { split: fx.split, dropAfterBytes: cut.length ? Math.min(...cut) : undefined });
    if (fx.contentSize === undefined && fx.contentStallAfterBytes !== undefined) {
      // A transfer that goes silent mid-body; the client (or close()) ends the connection.
      await w.write(clip.subarray(from, from + fx.contentStallAfterBytes));
      return;
    }
    if (fx.contentSize === undefined) {
      if (await w.write(clip.subarray(from, to + 1))) w.end();
      return;
    }
    // Generated on the fly in fixed-size pieces so a multi-gigabyte body never sits in memory.
    const head = mp4Header(size);
    if (from < head.length && !(await w.write(head.subarray(from, Math.min(head.length, to + 1))))) return;
    const piece = Buffer.alloc(64 * 1024);
    let left = to + 1 - Math.max(from, head.length);
    while (left > 0) {
      const n = Math.min(left, piece.length);
      if (!(await w.write(n === piece.length ? piece : piece.subarray(0, n)))) return;
      left -= n;
    }
    w.end();
  }
}
