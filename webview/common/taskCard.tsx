import { useRef, useState } from 'preact/hooks';
import type { GalleryString } from '../../src/shared/galleryStrings';
import type { GalleryAction, GalleryTask, GalleryWebviewMessage } from '../../src/shared/protocol/gallery';
import { frameToPng, playsH264 } from './frames';
import { translator } from './strings';
import { bucket, type TaskBucket } from './taskBucket';

const tr = translator<GalleryString>();
const H264 = playsH264();
/** Poster width: enough for the card, small enough to cache many. */
const POSTER_WIDTH = 320;

// One formatter for every card: toLocaleString with options builds a new one per call, which was a
// large part of rendering 500 cards.
const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const time = (ms: number) => TIME.format(ms);

/** Where a card's messages go: the gallery posts them to the host, a board turns some into take actions. */
export type PostTaskMessage = (m: GalleryWebviewMessage) => void;

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

/** The card's player and what it does: poster on first load, "use this frame", play. */
function usePlayer(t: GalleryTask, post: PostTaskMessage) {
  const video = useRef<HTMLVideoElement>(null);
  const posterSent = useRef(false);
  const [broken, setBroken] = useState<string | null>(null);

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
    if (png) post({ type: 'gallery/poster', key: t.key, dataUrl: png });
  };

  const useFrame = async () => {
    const v = video.current;
    if (!v) return;
    await loaded(v);
    const png = frameToPng(v);
    if (png) post({ type: 'gallery/frame', key: t.key, time: v.currentTime, dataUrl: png });
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
  const unplayable = !H264 ? tr('This editor cannot decode H.264 (MP4) video.') : broken;
  return { video, unplayable, setBroken, onLoaded, useFrame, play };
}

type Player = ReturnType<typeof usePlayer>;

/** The player, or why there is none, and a running task's progress. */
function TaskMedia({
  task: t,
  kind,
  player,
  act,
}: {
  task: GalleryTask;
  kind: TaskBucket;
  player: Player;
  act: (a: GalleryAction) => void;
}) {
  const { unplayable } = player;
  return (
    <div class="media">
      {t.src && !unplayable && (
        <video
          ref={player.video}
          src={t.src}
          poster={t.poster}
          crossOrigin="anonymous"
          preload={t.poster ? 'none' : 'auto'}
          controls
          playsInline
          onLoadedData={() => void player.onLoaded()}
          onError={() => player.setBroken(tr('This editor cannot play this video (its codec is not supported here).'))}
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
  );
}

/** What was asked and where it stands: prompt, state, parameters, times, file, failure and cost. */
function TaskFacts({ task: t, kind, index }: { task: GalleryTask; kind: TaskBucket; index: number }) {
  return (
    <>
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
    </>
  );
}

/** A plain action button: `data-action` names it for tests and the keyboard path. */
function ActionButton({
  action,
  act,
  label,
}: {
  action: GalleryAction;
  act: (a: GalleryAction) => void;
  label: string;
}) {
  return (
    <button type="button" data-action={action} onClick={() => act(action)}>
      {label}
    </button>
  );
}

/** The card's buttons: those of its file, its parameters and its watch. */
function TaskActions({ task: t, player, act }: { task: GalleryTask; player: Player; act: (a: GalleryAction) => void }) {
  const playable = t.src && !player.unplayable;
  return (
    <div class="actions">
      {playable && (
        <button type="button" data-action="play" onClick={() => void player.play()}>
          {tr('Play')}
        </button>
      )}
      {t.src && (
        <>
          <ActionButton action="open" act={act} label={tr('Open')} />
          <ActionButton action="reveal" act={act} label={tr('Reveal')} />
        </>
      )}
      {playable && (
        <button
          type="button"
          data-action="frame"
          title={tr('Save this frame as a PNG and start an image-to-video task with it')}
          onClick={() => void player.useFrame()}
        >
          {tr('Use this frame')}
        </button>
      )}
      <ActionButton action="copyId" act={act} label={tr('Copy id')} />
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
          <ActionButton action="remix" act={act} label={tr('Remix')} />
        </>
      )}
      {t.canResume && !t.running && <ActionButton action="resume" act={act} label={tr('Resume')} />}
      {t.running && <ActionButton action="stop" act={act} label={tr('Stop watching')} />}
      {t.src && <ActionButton action="deleteFile" act={act} label={tr('Delete file')} />}
      <ActionButton action="remove" act={act} label={tr('Remove')} />
    </div>
  );
}

/** One media task: what was asked, where it stands, and for a saved one the player and its actions. */
export function TaskCard({
  task: t,
  post,
  index,
  current,
  onFocus,
}: {
  task: GalleryTask;
  post: PostTaskMessage;
  index: number;
  /** This card is the list's one Tab stop. */
  current: boolean;
  onFocus: () => void;
}) {
  const player = usePlayer(t, post);
  const act = (action: GalleryAction) => post({ type: 'gallery/action', key: t.key, action });
  const kind = bucket(t);
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
      <TaskMedia task={t} kind={kind} player={player} act={act} />
      <TaskFacts task={t} kind={kind} index={index} />
      <TaskActions task={t} player={player} act={act} />
    </li>
  );
}
