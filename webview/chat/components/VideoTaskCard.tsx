/**
 * The video task a tool call started, inside its card: progress while it runs, then the saved
 * file (Open, Reveal, the default player) with a small preview; an image a tool saved is shown
 * as the picture itself (Open, Reveal). Local files come as webview URIs.
 */
import type { JSX } from 'preact';
import type { GalleryTask } from '../../../src/shared/protocol/gallery';
import type { VideoCardAction } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { TextButton } from './buttons';

export function VideoTaskCard({ callId, task }: { callId: string; task: GalleryTask }): JSX.Element {
  const { t } = useChat();
  const act = (action: VideoCardAction) => post({ type: 'tools/videoAction', callId, action });
  const saved = task.state === 'saved' && task.src !== undefined;
  // An image a tool saved (media kind image) comes in the same shape: shown as a picture.
  const image = /\.(png|jpg|webp|gif)$/i.test(task.file ?? '');
  return (
    <div class={`tc-video video-${task.state}`} aria-label={t('Video task')} data-video-key={task.key}>
      <div class="tc-video-state" role="status">
        {task.stateLabel}
        {task.file ? <span class="tc-video-file"> · {task.file}</span> : null}
      </div>
      {task.running && task.state !== 'saved' ? (
        <progress max={100} value={task.progress ?? 0} aria-label={task.stateLabel} />
      ) : null}
      {task.failure ? <div class="tc-video-failure">{task.failure}</div> : null}
      {saved ? (
        <>
          {image ? (
            <img class="tc-video-preview tc-image-preview" src={task.src} alt={task.prompt} />
          ) : (
            <video class="tc-video-preview" src={task.src} poster={task.poster} controls preload="metadata" muted />
          )}
          <div class="tc-actions">
            <TextButton icon="go-to-file" label={t('Open')} onClick={() => act('open')} />
            <TextButton icon="folder-opened" label={t('Reveal in Explorer')} onClick={() => act('reveal')} />
            {image ? null : (
              <TextButton
                icon="link-external"
                label={t('Open in Default Player')}
                onClick={() => act('openExternal')}
              />
            )}
          </div>
        </>
      ) : null}
    </div>
  );
}
