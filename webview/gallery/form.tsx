import { useState } from 'preact/hooks';
import type { GalleryForm } from '../../src/shared/protocol/gallery';
import type { GalleryStore } from './state';
import { t } from './strings';

const ASPECTS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3'];

/** Seconds, aspect ratio and resolution of the new video. */
function Parameters({ f, setF }: { f: GalleryForm; setF: (f: GalleryForm) => void }) {
  return (
    <div class="row">
      <label>
        {t('Seconds')}
        <input
          name="seconds"
          type="number"
          min={1}
          max={15}
          value={f.seconds ?? ''}
          onInput={(e) => {
            const n = Number(e.currentTarget.value);
            const { seconds: _s, ...rest } = f;
            setF(e.currentTarget.value === '' || !Number.isFinite(n) ? rest : { ...rest, seconds: n });
          }}
        />
      </label>
      <label>
        {t('Aspect')}
        <select
          name="aspectRatio"
          value={f.aspectRatio ?? '16:9'}
          onChange={(e) => setF({ ...f, aspectRatio: e.currentTarget.value })}
        >
          {ASPECTS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('Resolution')}
        <select
          name="resolution"
          value={f.resolution ?? '720p'}
          onChange={(e) => setF({ ...f, resolution: e.currentTarget.value })}
        >
          <option value="720p">720p</option>
          <option value="480p">480p</option>
        </select>
      </label>
    </div>
  );
}

/**
 * Remix (and "use this frame"): the task's parameters, all editable. Submitting asks the host,
 * which checks the rules and confirms the billed request before anything is sent.
 */
export function RemixForm({ store, form }: { store: GalleryStore; form: GalleryForm }) {
  const [f, setF] = useState(form);
  const [images, setImages] = useState(form.images.join('\n'));
  // A new form from the host (another task's remix) replaces the fields.
  const [from, setFrom] = useState(form);
  if (from !== form) {
    setFrom(form);
    setF(form);
    setImages(form.images.join('\n'));
  }
  const submit = (e: Event) => {
    e.preventDefault();
    const list = images
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    store.post({ type: 'gallery/generate', form: { ...f, images: list } });
  };
  return (
    <form class="remix" onSubmit={submit} aria-label={t('New video from this task')}>
      <h2>{t('New video')}</h2>
      <label>
        {t('Model')}
        <select name="model" value={f.model} onChange={(e) => setF({ ...f, model: e.currentTarget.value })}>
          {f.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('Prompt')}
        <textarea
          name="prompt"
          rows={3}
          value={f.prompt}
          onInput={(e) => setF({ ...f, prompt: e.currentTarget.value })}
        />
      </label>
      <Parameters f={f} setF={setF} />
      <label>
        {t('Reference images (workspace paths or HTTPS URLs, one a line)')}
        <textarea name="images" rows={2} value={images} onInput={(e) => setImages(e.currentTarget.value)} />
      </label>
      <p class="hint">{t('Generating is billed to your gateway account; you confirm before it is sent.')}</p>
      <div class="row">
        <button type="submit" class="primary">
          {t('Generate…')}
        </button>
        <button type="button" onClick={() => (store.form.value = null)}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}
