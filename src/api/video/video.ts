/**
 * The video half of the gateway client (spec 2.4-2.7, 3, 4): create a task (never retried: it is
 * billed), read its status once on either route, in either format, and download the content (the
 * streaming into a sink is in ./videoDownload). The poll loop that asks again is the job's:
 * src/video/jobs/core/pollLoop.ts.
 */
import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
import { GatewayError, isGatewayError } from '../transport/errors';
import type { HttpClient } from '../transport/http';
import { parseModelList, type ModelRecord } from '../models/models';
import type { VideoCreateRequest } from './videoRules';
import {
  assertVideoId,
  normaliseVideoStatus,
  resolveResultUrl,
  videoIdFromCreation,
  type VideoStatus,
} from './videoStatus';
import type { VideoDownloadOptions, VideoSinkFactory } from './videoDownload';

export type { VideoStatus } from './videoStatus';

/** The slowest upload a video creation is given time for (see `create`). */
const UPLOAD_BYTES_PER_SECOND = 50_000;

/** How a content route may fail and still leave the status's result link worth trying. */
const ROUTE_FALLBACK_KINDS = ['not_found', 'not_video', 'bad_request', 'server'] as const;

/** The video endpoints on the video host (the chat host when no video host is set). */
export class VideoClient {
  constructor(readonly http: HttpClient) {}

  /** The normalised `/v1` root of the video host. */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /**
   * Ids of the models with video capability (or modality) from `GET /v1/models` on the video host,
   * read by the chat side's {@link parseModelList} (records that are not objects with an id are
   * skipped; a list with no valid record is an `invalid_response`, which the wizard treats like an
   * empty list).
   */
  async listVideoModels(signal?: AbortSignal): Promise<string[]> {
    const body = await this.http.json('GET', '/models', z.unknown(), { signal });
    // Tags are compared ignoring case here: the wizard offers whatever the video host calls video.
    const isVideo = (m: ModelRecord) =>
      [...(m.capabilities ?? []), ...(m.modalities ?? [])].some((t) => t.toLowerCase() === 'video');
    return parseModelList(body)
      .filter(isVideo)
      .map((m) => m.id);
  }

  /**
   * Creates a task and returns its id (`id`, else `request_id`, else `task_id`). Sent exactly once:
   * a failed creation is reported, never repeated, because it is billed.
   */
  async create(req: VideoCreateRequest, signal?: AbortSignal): Promise<{ id: string; body: unknown }> {
    // The header deadline also covers the upload, and base64 reference images can make the body
    // tens of MB: a slow uplink would time out (and leave an unknown, billed task) before the
    // gateway could answer. Allow at least 50 KB/s on top of the usual deadline.
    const bytes = JSON.stringify(req).length;
    const timeoutMs = this.http.timeoutMs + Math.round((bytes / UPLOAD_BYTES_PER_SECOND) * 1000);
    const res = await this.http.request('POST', '/videos/generations', { body: req, signal, retry: false, timeoutMs });
    const text = await this.http.text(res, { signal });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GatewayError(
        'invalid_response',
        l10n.t('The video creation answer was not JSON: "{0}"', text.slice(0, 120)),
      );
    }
    return { id: videoIdFromCreation(body), body };
  }

  /** One status query, in whichever format the gateway answers (`GET /v1/videos/{id}`). */
  async status(id: string, signal?: AbortSignal): Promise<VideoStatus> {
    const safe = assertVideoId(id);
    return this.readStatus(`/videos/${encodeURIComponent(safe)}`, safe, signal);
  }

  /** The legacy query many relays serve (`GET /v1/video/generations/{task_id}`, spec 2.7). */
  async legacyStatus(taskId: string, signal?: AbortSignal): Promise<VideoStatus> {
    const safe = assertVideoId(taskId);
    return {
      ...(await this.readStatus(`/video/generations/${encodeURIComponent(safe)}`, safe, signal)),
      via: 'legacy-route',
    };
  }

  private async readStatus(p: string, id: string, signal?: AbortSignal): Promise<VideoStatus> {
    // One attempt: the poll loop (video/jobs/core/pollLoop) decides when to ask again.
    let res: Response;
    try {
      res = await this.http.request('GET', p, { signal, retry: false });
    } catch (err) {
      throw isGatewayError(err) && err.videoId === undefined ? err.with({ videoId: id }) : err;
    }
    const text = await this.http.text(res, { signal });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GatewayError(
        'invalid_response',
        l10n.t('The status of video {0} was not JSON: "{1}"', id, text.slice(0, 120)),
        { videoId: id },
      );
    }
    return normaliseVideoStatus(body, id);
  }

  /** The absolute URL a download of `idOrUrl` goes to: an id's content route, or a result URL. */
  contentUrl(idOrUrl: string): string {
    const s = idOrUrl.trim();
    // Ids never contain `/`; every result URL, relative or absolute, does.
    if (s.includes('/')) return resolveResultUrl(s, this.baseUrl).toString();
    return this.http.url(`/videos/${encodeURIComponent(assertVideoId(s))}/content`);
  }

  /**
   * Downloads a task's video into sinks made by `sinkFor` (see `fetchVideo` in ./videoDownload; the
   * job saves into a file with video/jobs/core/saveDownload.ts). `source` is an id or a result URL;
   * with `o.videoId` the content route `{video_base_url}/v1/videos/{id}/content` comes first (with
   * the key), and a different result URL is the fallback when that route answered 404, another 4xx
   * but 401/403/408/429, a 5xx (after the retries), or JSON (or anything else that is not a video):
   * relays that serve only temporary direct links (spec 2.7) still work. A relative result URL resolves against the video base URL and gets the key; an
   * absolute one on another origin never does.
   */
  async download(
    source: string,
    sinkFor: VideoSinkFactory,
    o: VideoDownloadOptions = {},
  ): Promise<{ file: string; bytes: number }> {
    // Loaded with the first download: activation (which resumes tasks) does not need it.
    const { fetchVideo } = await import('./videoDownload');
    if (o.videoId === undefined) return fetchVideo(this.http, this.contentUrl(source), sinkFor, o);
    const id = assertVideoId(o.videoId);
    const route = this.contentUrl(id);
    let given: string | undefined;
    try {
      given = this.contentUrl(source);
    } catch (err) {
      // A result URL that is no usable address (`file:`, no scheme) does not stop the content route.
      this.http.log(
        'warn',
        `video ${id}: ignored the result URL (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    if (given === undefined || given === route) return fetchVideo(this.http, route, sinkFor, o);
    try {
      return await fetchVideo(this.http, route, sinkFor, o);
    } catch (err) {
      // Not after a refused key (401/403), a cut transfer (retried by the job) or a stop; after any
      // other answer the status's own link is still worth one GET: before the content route came
      // first it was the only way, and a relay whose route is broken (5xx) or unknown to it (400,
      // 405) may well serve it.
      if (!isGatewayError(err, ...ROUTE_FALLBACK_KINDS)) throw err;
      const link = new URL(given);
      // HttpClient sends the key only to the video base URL's origin: a link on another host (a CDN,
      // a storage bucket) is fetched without it, so the key never reaches a third party.
      const foreign = link.origin !== new URL(route).origin;
      const answered = err.kind === 'not_video' ? undefined : String(err.status ?? err.kind);
      this.http.log(
        'info',
        `video ${id}: ${new URL(route).pathname} answered ${answered ?? 'no video'}; downloading the result URL ${foreign ? `on ${link.host} (without the key)` : link.pathname}`,
      );
      try {
        return await fetchVideo(this.http, given, sinkFor, o);
      } catch (second) {
        if (!isGatewayError(second, 'auth', 'forbidden', 'not_found', 'bad_request', 'not_video', 'invalid_response'))
          throw second;
        // Both ways failed; the 404/403 of a link host is not the gateway's key or model problem
        // that describeError would explain for those kinds, so it is said as what it is.
        throw new GatewayError(
          'invalid_response',
          l10n.t(
            'The video {0} is finished but could not be downloaded: the content route answered {1}, and the result link on {2} answered: {3}',
            id,
            answered ?? l10n.t('something that is not a video'),
            link.host,
            second.message,
          ),
          {
            videoId: id,
            path: link.pathname,
            status: second.status,
            cause: second,
            advice: 'freshResultLink',
          },
        );
      }
    }
  }
}
