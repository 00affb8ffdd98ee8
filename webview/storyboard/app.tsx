import type { ShotView } from '../../src/shared/protocol/storyboard';
import type { GalleryWebviewMessage } from '../../src/shared/protocol/gallery';
import { TaskCard, type PostTaskMessage } from '../common/taskCard';
import type { BoardStore } from './state';
import { t } from './strings';
import { BoardExport } from './exportWiring';

const TAKE_ACTIONS = new Set(['open', 'reveal', 'copyId', 'resume', 'stop']);

/** The task card posts gallery messages; on a board the ones that make sense become take actions. */
function takePost(store: BoardStore, id: string, take: number): PostTaskMessage {
  return (m: GalleryWebviewMessage) => {
    if (m.type === 'gallery/action' && TAKE_ACTIONS.has(m.action))
      store.post({ type: 'board/takeAction', id, take, action: m.action });
  };
}

type ShotProps = { shot: ShotView; index: number; count: number; store: BoardStore; running: boolean };

/** Generate, move, duplicate and delete one shot. */
function ShotActions({ shot, index, count, store, running }: ShotProps) {
  const edit = (edit: Record<string, unknown>) => store.post({ type: 'board/edit', edit });
  return (
    <div class="actions">
      <button
        type="button"
        class="primary"
        data-action="generate"
        disabled={running}
        onClick={() => store.post({ type: 'board/generate', id: shot.id })}
      >
        {t('Generate shot')}
      </button>
      <button
        type="button"
        data-action="up"
        disabled={index === 0}
        onClick={() => edit({ kind: 'move', id: shot.id, to: index - 1 })}
      >
        {t('Move up')}
      </button>
      <button
        type="button"
        data-action="down"
        disabled={index === count - 1}
        onClick={() => edit({ kind: 'move', id: shot.id, to: index + 1 })}
      >
        {t('Move down')}
      </button>
      <button type="button" data-action="duplicate" onClick={() => edit({ kind: 'duplicate', id: shot.id })}>
        {t('Duplicate')}
      </button>
      <button type="button" data-action="delete" onClick={() => edit({ kind: 'delete', id: shot.id })}>
        {t('Delete')}
      </button>
    </div>
  );
}

/** A shot's takes, each the task card of its video, with the choice of the take to use. */
function Takes({ shot, index, store }: Pick<ShotProps, 'shot' | 'index' | 'store'>) {
  const edit = (edit: Record<string, unknown>) => store.post({ type: 'board/edit', edit });
  return (
    <section class="takes" aria-label={t('Takes')}>
      {shot.takeCards.map((card, i) => (
        <div key={card.key} class={`take${card.take === shot.chosenTake ? ' chosen' : ''}`} data-take={card.take}>
          <p class="take-head">
            {t('Take {0}', card.take)}
            {shot.takes > 1 && shot.savedTakes.includes(card.take) && (
              <button
                type="button"
                data-action="choose"
                aria-pressed={card.take === shot.chosenTake}
                onClick={() => edit({ kind: 'choose', id: shot.id, take: card.take })}
              >
                {card.take === shot.chosenTake ? t('Chosen take') : t('Use take {0}', card.take)}
              </button>
            )}
          </p>
          <ul class="tasks">
            <TaskCard
              task={card}
              post={takePost(store, shot.id, card.take)}
              index={index * 10 + i}
              current
              onFocus={() => undefined}
            />
          </ul>
        </div>
      ))}
    </section>
  );
}

/**
 * The shot's keyframes: an image prompt for the frame it starts on (generated before the clip,
 * instead of continuing from the previous shot) and, where the model takes one, the frame it ends on.
 */
function Keyframes({ shot, n, edit }: { shot: ShotView; n: number; edit: (e: Record<string, unknown>) => void }) {
  const field = (end: 'firstFrame' | 'lastFrame', label: string) => (
    <div class="keyframe" data-keyframe={end}>
      <label for={`${end}-${shot.id}`}>{label}</label>
      <input
        id={`${end}-${shot.id}`}
        type="text"
        value={shot[end]?.prompt ?? ''}
        placeholder={t('Image prompt (empty: none)')}
        onChange={(e) => edit({ kind: 'update', id: shot.id, patch: { [end]: e.currentTarget.value } })}
      />
      {shot[end]?.image && <p class="meta keyframe-image">{shot[end]?.image}</p>}
    </div>
  );
  return (
    <>
      {!shot.continues && field('firstFrame', t('First frame of shot {0}: generated keyframe', n))}
      {(shot.endFrame || shot.lastFrame) && field('lastFrame', t('Last frame of shot {0}: generated keyframe', n))}
    </>
  );
}

function Shot({
  shot,
  index,
  count,
  store,
  running,
}: {
  shot: ShotView;
  index: number;
  count: number;
  store: BoardStore;
  running: boolean;
}) {
  const edit = (edit: Record<string, unknown>) => store.post({ type: 'board/edit', edit });
  const n = index + 1;
  const head = `shot-${shot.id}-title`;
  return (
    <li class={`shot ${shot.status.kind}`} data-shot={shot.id} aria-labelledby={head}>
      <h2 id={head}>
        {t('Shot {0}', n)} <span class="id">{shot.id}</span>
        {shot.continues && <span class="badge chain">{t('continues from the previous shot')}</span>}
        {shot.firstFrame && <span class="badge keyframe">{t('starts from a keyframe')}</span>}
      </h2>
      <label class="prompt-label" for={`prompt-${shot.id}`}>
        {t('Prompt of shot {0}', n)}
      </label>
      <textarea
        id={`prompt-${shot.id}`}
        rows={3}
        value={shot.prompt}
        onChange={(e) => edit({ kind: 'update', id: shot.id, patch: { prompt: e.currentTarget.value } })}
      />
      <Keyframes shot={shot} n={n} edit={edit} />
      <p class="meta">{shot.settings}</p>
      {shot.images.length > 0 && <p class="meta images">{shot.images.join(', ')}</p>}
      {shot.problems.length > 0 && (
        <ul class="problems" data-problems={shot.id}>
          {shot.problems.map((p) => (
            <li key={p} class="failure">
              {p}
            </li>
          ))}
        </ul>
      )}
      <p class={`status ${shot.status.kind}`} data-status={shot.status.kind}>
        {shot.status.text}
      </p>
      <ShotActions shot={shot} index={index} count={count} store={store} running={running} />
      {shot.takeCards.length > 0 && <Takes shot={shot} index={index} store={store} />}
    </li>
  );
}

/** The board: its title and price, Generate all, then the shots in order with their takes. */
export function App({ store }: { store: BoardStore }) {
  const view = store.view.value;
  const notice = store.notice.value;
  if (!view) return <main class="board" aria-busy="true" />;
  if (view.error)
    return (
      <main class="board">
        <h1>{t('Storyboard')}</h1>
        <div class="board-error" role="alert">
          <p>{t('This board cannot be shown: {0}', view.error)}</p>
          <p>
            {t(
              'Fix it in the text editor (Reopen Editor With… > Text Editor); nothing is written while it does not parse.',
            )}
          </p>
        </div>
      </main>
    );
  return (
    <main class="board">
      <header class="board-head">
        <h1>{view.title || t('Storyboard')}</h1>
        {view.price && (
          <p class="meta price" data-price>
            {view.price}
          </p>
        )}
        <button
          type="button"
          class="primary"
          data-action="generateAll"
          disabled={view.running}
          onClick={() => store.post({ type: 'board/generate' })}
        >
          {view.running ? t('Generating…') : t('Generate all')}
        </button>
      </header>
      <div role="status" class="notice-area">
        {notice && (
          <p class={notice.error ? 'notice error' : 'notice'}>
            {notice.text}{' '}
            <button type="button" onClick={() => (store.notice.value = null)}>
              {t('Dismiss')}
            </button>
          </p>
        )}
      </div>
      {view.stateError && (
        <p class="failure" role="alert">
          {t(
            'The state file beside the board cannot be read ({0}); it is kept as it is and not updated.',
            view.stateError,
          )}
        </p>
      )}
      {view.shots.length === 0 ? (
        <p>{t('No shots yet.')}</p>
      ) : (
        <ol class="shots" aria-label={t('Shots')}>
          {view.shots.map((s, i) => (
            <Shot key={s.id} shot={s} index={i} count={view.shots.length} store={store} running={view.running} />
          ))}
        </ol>
      )}
      <button
        type="button"
        data-action="add"
        onClick={() =>
          store.post({
            type: 'board/edit',
            edit: { kind: 'add', ...(view.shots.length ? { after: view.shots[view.shots.length - 1]?.id } : {}) },
          })
        }
      >
        {t('Add shot')}
      </button>
      <BoardExport store={store} view={view} />
    </main>
  );
}
