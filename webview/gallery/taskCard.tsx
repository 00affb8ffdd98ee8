import { useRef, useState } from 'preact/hooks';
import type { GalleryAction, GalleryTask } from '../../src/shared/protocol/gallery';
import { frameToPng, playsH264 } from './frames';
import { bucket, type GalleryStore } from './state';
import { t as tr } from './strings';

const H264 = playsH264();
/** Poster width: enough for the card, small enough to cache many. */
const POSTER_WIDTH = 320;

// One formatter for every card: toLocaleString with options builds a new one per call, which was a
// large part of rendering 500 cards.
const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const time = (ms: number) => TIME.format(ms);

function once(target: EventTarget, event: string): Promise<void> {
  return new Promise((resolve) => target.addEventListener(event, () => resolve(), { once: true }));
}

/** Loads the video's data if only its poster was shown (`preload="none"`), so a frame can be drawn. */
async function loaded(v: HTMLVideoElement): Promise<void> {
  if (v.readyState >= 2) return;
  const ready = once(v, 'loadeddata');
  v.preload = 'auto';
  v.load();
  await ready;
}

/** One task: what was asked, where it stands, and for a saved one the player and its actions. */
export function TaskCard({
  task: t,
  store,
  index,
  current,
  onFocus,
}: {
  task: GalleryTask;
  store: GalleryStore;
  index: number;
  /** This card is the list's one Tab stop. */
  current: boolean;
  onFocus: () => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const posterSent = useRef(false);
  const [broken, setBroken] = useState<string | null>(null);
  const act = (action: GalleryAction) => store.post({ type: 'gallery/action', key: t.key, action });
  const kind = bucket(t);
  const unplayable = !H264 ? tr('This editor cannot decode H.264 (MP4) video.') : broken;

  /** First load without a cached poster: draw one from a quarter in (the first frame is often black). */
  const onLoaded = async () => {
    const v = video.current;
    if (!v || t.poster || posterSent.current) return;
    posterSent.current = true;
    const at = Number.isFinite(v.duration) ? Math.min(1, v.duration / 4) : 0;
    if (at > 0 && v.paused && v.currentTime === 0) {
      const seeked = once(v, 'seeked');
      v.currentTime = at;
      await seeked;
    }
    const png = frameToPng(v, POSTER_WIDTH);
    if (v.paused && at > 0) v.currentTime = 0;
    if (png) store.post({ type: 'gallery/poster', key: t.key, dataUrl: png });
  };

  const useFrame = async () => {
    const v = video.current;
    if (!v) return;
    await loaded(v);
    const png = frameToPng(v);
    if (png) store.post({ type: 'gallery/frame', key: t.key, time: v.currentTime, dataUrl: png });
  };

  const play = async () => {
    const v = video.current;
    if (!v) return;
    try {
      await v.play();
    } catch (e) {
      setBroken(tr('This editor could not play the video ({0}).', e instanceof Error ? e.name : 'error'));
    }
  };

  return (
    <li
      class={`task ${kind}`}
      data-key={t.key}
      data-state={t.state}
      tabIndex={current ? 0 : -1}
      aria-labelledby={`task-${index}-prompt task-${index}-state`}
      onFocusCapture={onFocus}
      onKeyDown={(ev) => {
        // Enter or Space on the card itself opens its video; without a file, it goes to the buttons.
        if (ev.target !== ev.currentTarget || (ev.key !== 'Enter' && ev.key !== ' ')) return;
        ev.preventDefault();
        if (t.src) act('open');
        else ev.currentTarget.querySelector<HTMLElement>('.actions button')?.focus();
      }}
    >
      <div class="media">
        {t.src && !unplayable && (
          <video
            ref={video}
            src={t.src}
            poster={t.poster}
            crossOrigin="anonymous"
            preload={t.poster ? 'none' : 'auto'}
            controls
            playsInline
            onLoadedData={() => void onLoaded()}
            onError={() => setBroken(tr('This editor cannot play this video (its codec is not supported here).'))}
          />
        )}
        {t.src && unplayable && (
          <div class="unplayable" role="note">
            {t.poster && <img src={t.poster} alt="" />}
            <p>{unplayable}</p>
            <button type="button" data-action="openExternal" onClick={() => act('openExternal')}>
              {tr('Open externally')}
            </button>
          </div>
        )}
        {!t.src && t.state === 'saved' && (
          <p class="gone">
            {t.file ? tr('The file is no longer there ({0}).', t.file) : tr('The file is no longer there.')}
          </p>
        )}
        {kind === 'running' && (
          <div class="progress">
            <progress max={100} value={t.progress ?? 0} aria-label={tr('Progress')} />
            <span>{t.stateLabel}</span>
          </div>
        )}
      </div>
      <p class="prompt" id={`task-${index}-prompt`}>
        {t.prompt || tr('(no prompt: followed by id)')}
      </p>
      <p class="meta">
        <span class={`badge ${kind}`} id={`task-${index}-state`}>
          {t.stateLabel}
        </span>{' '}
        {t.model || tr('unknown model')}
        {t.seconds !== undefined && ` · ${t.seconds} s`}
        {t.aspectRatio && ` · ${t.aspectRatio}`}
        {t.resolution && ` · ${t.resolution}`}
        {t.images.length > 0 &&
          ` · ${t.images.length > 1 ? tr('{0} reference images', t.images.length) : tr('1 reference image')}`}
      </p>
      <p class="meta">
        <span class="id">{t.videoId ?? tr('not created yet')}</span> · {tr('created {0}', time(t.createdAt))}
        {t.finishedAt !== undefined && ` · ${tr('finished {0}', time(t.finishedAt))}`}
      </p>
      {t.file && <p class="meta file">{t.file}</p>}
      {t.failure && <p class="failure">{t.failure}</p>}
      {t.cost && <p class="meta cost">{t.cost}</p>}
      {t.costFlag && (
        <p class="failure charged" data-flag="failed-charged">
          {t.costFlag}
        </p>
      )}
      <div class="actions">
        {t.src && !unplayable && (
          <button type="button" data-action="play" onClick={() => void play()}>
            {tr('Play')}
          </button>
        )}
        {t.src && (
          <>
            <button type="button" data-action="open" onClick={() => act('open')}>
              {tr('Open')}
            </button>
            <button type="button" data-action="reveal" onClick={() => act('reveal')}>
              {tr('Reveal')}
            </button>
          </>
        )}
        {t.src && !unplayable && (
          <button
            type="button"
            data-action="frame"
            title={tr('Save this frame as a PNG and start an image-to-video task with it')}
            onClick={() => void useFrame()}
          >
            {tr('Use this frame')}
          </button>
        )}
        <button type="button" data-action="copyId" onClick={() => act('copyId')}>
          {tr('Copy id')}
        </button>
        {t.model && (
          <>
            <button
              type="button"
              data-action="rerun"
              title={tr('A new, billed task with the same parameters')}
              onClick={() => act('rerun')}
            >
              {tr('Re-run')}
            </button>
            <button type="button" data-action="remix" onClick={() => act('remix')}>
              {tr('Remix')}
            </button>
          </>
        )}
        {t.canResume && !t.running && (
          <button type="button" data-action="resume" onClick={() => act('resume')}>
            {tr('Resume')}
          </button>
        )}
        {t.running && (
          <button type="button" data-action="stop" onClick={() => act('stop')}>
            {tr('Stop watching')}
          </button>
        )}
        {t.src && (
          <button type="button" data-action="deleteFile" onClick={() => act('deleteFile')}>
            {tr('Delete file')}
          </button>
        )}
        <button type="button" data-action="remove" onClick={() => act('remove')}>
          {tr('Remove')}
        </button>
      </div>
    </li>
  );
}
