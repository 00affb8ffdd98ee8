import type { GalleryImage, GalleryImageAction, GalleryWebviewMessage } from '../../src/shared/protocol/gallery';
import { t } from './strings';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** One saved image of the Media gallery: the picture, what made it, its actions. */
export function ImageCard({
  image: i,
  post,
  index,
  current,
  onFocus,
}: {
  image: GalleryImage;
  post: (m: GalleryWebviewMessage) => void;
  index: number;
  current: boolean;
  onFocus: () => void;
}) {
  const act = (action: GalleryImageAction) => post({ type: 'gallery/imageAction', name: i.name, action });
  const button = (action: GalleryImageAction, label: string) => (
    <button type="button" data-action={action} onClick={() => act(action)}>
      {label}
    </button>
  );
  return (
    <li
      class="task saved image-card"
      data-image={i.name}
      data-kind="image"
      tabIndex={current ? 0 : -1}
      aria-labelledby={`task-${index}-prompt`}
      onFocusCapture={onFocus}
      onKeyDown={(ev) => {
        if (ev.target !== ev.currentTarget || (ev.key !== 'Enter' && ev.key !== ' ')) return;
        ev.preventDefault();
        act('open');
      }}
    >
      <div class="media">
        <img src={i.src} alt={i.prompt ?? i.file} loading="lazy" />
      </div>
      <p class="prompt" id={`task-${index}-prompt`}>
        {i.prompt ?? i.file}
      </p>
      <p class="meta">
        <span class="badge image">{i.operation === 'edit' ? t('Edited image') : t('Image')}</span>
        {i.model && <> · {i.model}</>}
        {i.size && <> · {i.size}</>} · {TIME.format(i.createdAt)}
      </p>
      <p class="meta file">{i.file}</p>
      <div class="actions">
        {button('open', t('Open'))}
        {button('reveal', t('Reveal'))}
        {button('edit', t('Edit Image…'))}
        {button('deleteFile', t('Delete file'))}
      </div>
    </li>
  );
}
