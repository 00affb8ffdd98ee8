/**
 * The board editor's export panel: join the chosen takes into one MP4 (the host copies packets;
 * when it cannot, the panel says why and offers a re-encode here with WebCodecs) and a GIF for a
 * README with width, frame rate, size cap and loop. The media code (mediabunny, gifenc) is
 * loaded on first use with `import()`, so the board opens without it. Self-contained: the board
 * passes the takes, the two host calls and its translator.
 */
import { useState } from 'preact/hooks';

export interface ExportTake {
  /** How the take is named to the user ("Shot 2, take 1"). */
  name: string;
  /** A URL the page may fetch (the webview URI of the clip). */
  src: string;
}

export type StitchAnswer =
  | { ok: true; file: string; durationSeconds: number }
  | { ok: false; kind: 'mismatch'; message: string; index: number; parameter: string }
  | { ok: false; kind: 'undecodable'; message: string; indexes: number[] }
  | { ok: false; kind: 'refused'; message: string };

export type SaveAnswer = { ok: true; file: string } | { ok: false; message: string };

export interface ExportPanelProps {
  takes: ExportTake[];
  /** The host joins the takes without re-encoding and saves film.mp4 beside the board. */
  onStitch: () => Promise<StitchAnswer>;
  /** The host saves what the page made (a re-encoded film or a GIF) beside the board. */
  onSave: (kind: 'reencoded' | 'gif', bytes: Uint8Array) => Promise<SaveAnswer>;
  /** The board's translator; English when absent. `{0}` style arguments. */
  t?: (text: string, ...args: Array<string | number>) => string;
  /** How a take's bytes are read (default: fetch). */
  load?: (src: string) => Promise<ArrayBuffer>;
}

const english = (text: string, ...args: Array<string | number>) =>
  text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));

async function fetchBytes(src: string): Promise<ArrayBuffer> {
  const res = await fetch(src);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.arrayBuffer();
}

type Status = { text: string; error: boolean } | undefined;
type Translate = (text: string, ...args: Array<string | number>) => string;
/** What the GIF fieldset asks for. */
interface GifOptions {
  maxWidth: number;
  maxFps: number;
  maxBytes: number;
  plays: number;
}

/** The panel's state and what every export shares: reading the takes, marking a bad one, one run at a time. */
function useExportRun(props: ExportPanelProps, t: Translate) {
  const load = props.load ?? fetchBytes;
  const [busy, setBusy] = useState<string | undefined>();
  const [status, setStatus] = useState<Status>();
  const [offerReencode, setOfferReencode] = useState(false);
  const [bad, setBad] = useState<number[]>([]);

  const fail = (err: unknown) => setStatus({ text: err instanceof Error ? err.message : String(err), error: true });

  /** Reads every take; a take that cannot be read is marked and stops the export. */
  async function readAll(): Promise<ArrayBuffer[] | undefined> {
    const out: ArrayBuffer[] = [];
    const unread: number[] = [];
    for (const [i, take] of props.takes.entries()) {
      try {
        out.push(await load(take.src));
      } catch {
        unread.push(i);
      }
    }
    if (unread.length === 0) return out;
    setBad(unread);
    setStatus({ text: t('{0} cannot be read.', unread.map((i) => props.takes[i]!.name).join(', ')), error: true });
    return undefined;
  }

  /** Marks the clip a media error names ("clip N: ...") and says which take it is. */
  function clipFailure(err: unknown) {
    const text = err instanceof Error ? err.message : String(err);
    const m = /clip (\d+):/.exec(text);
    const index = m ? Number(m[1]) - 1 : -1;
    if (index >= 0 && index < props.takes.length) {
      setBad([index]);
      setStatus({ text: t('{0} cannot be included: {1}', props.takes[index]!.name, text), error: true });
    } else fail(err);
  }

  async function run(label: string, work: () => Promise<void>) {
    setBusy(label);
    setStatus(undefined);
    try {
      await work();
    } finally {
      setBusy(undefined);
    }
  }

  return { busy, status, setStatus, offerReencode, setOfferReencode, bad, setBad, readAll, clipFailure, run };
}

type ExportRun = ReturnType<typeof useExportRun>;

/** Join without re-encoding (the host); on a mismatch, offer the re-encode here. */
function stitch(props: ExportPanelProps, x: ExportRun, t: Translate) {
  return x.run(t('Joining…'), async () => {
    x.setOfferReencode(false);
    x.setBad([]);
    const r = await props
      .onStitch()
      .catch((err: unknown) => ({ ok: false as const, kind: 'refused' as const, message: String(err) }));
    if (r.ok) {
      x.setStatus({
        text: t('Saved {0} ({1} s, not re-encoded).', r.file, r.durationSeconds.toFixed(2)),
        error: false,
      });
      return;
    }
    x.setStatus({ text: r.message, error: true });
    if (r.kind === 'mismatch') {
      x.setBad([r.index]);
      x.setOfferReencode(true);
    } else if (r.kind === 'undecodable') x.setBad(r.indexes);
  });
}

/** Re-encode the takes here (WebCodecs) into one film, saved by the host. */
function reencode(props: ExportPanelProps, x: ExportRun, t: Translate) {
  return x.run(t('Re-encoding…'), async () => {
    const clips = await x.readAll();
    if (!clips) return;
    try {
      const { reencodeClips } = await import('./media/reencode');
      const out = await reencodeClips(clips);
      const saved = await props.onSave('reencoded', out.bytes);
      x.setStatus(
        saved.ok
          ? {
              text: t(
                'Saved {0} ({1} s, re-encoded as {2} {3}x{4}).',
                saved.file,
                out.durationSeconds.toFixed(2),
                out.codec,
                out.width,
                out.height,
              ),
              error: false,
            }
          : { text: saved.message, error: true },
      );
      if (saved.ok) x.setOfferReencode(false);
    } catch (err) {
      x.clipFailure(err);
    }
  });
}

/** A GIF of the takes within the options' limits, saved by the host. */
function gif(props: ExportPanelProps, x: ExportRun, t: Translate, options: GifOptions) {
  return x.run(t('Making the GIF…'), async () => {
    const clips = await x.readAll();
    if (!clips) return;
    try {
      const { exportGif, describeGif } = await import('./media/gif');
      const out = await exportGif(clips, options);
      if (!out.fits) {
        x.setStatus({ text: describeGif(out), error: true });
        return;
      }
      const saved = await props.onSave('gif', out.bytes);
      x.setStatus(
        saved.ok
          ? { text: t('Saved {0}: {1}', saved.file, describeGif(out)), error: false }
          : { text: saved.message, error: true },
      );
    } catch (err) {
      x.clipFailure(err);
    }
  });
}

/** The GIF's width, frame rate, size cap and loop, and its Export button. */
function GifFieldset({
  t,
  disabled,
  onExport,
}: {
  t: Translate;
  disabled: boolean;
  onExport: (o: GifOptions) => void;
}) {
  const [width, setWidth] = useState(480);
  const [fps, setFps] = useState(12);
  const [maxKb, setMaxKb] = useState(2048);
  const [plays, setPlays] = useState(0);
  const num = (set: (n: number) => void, min: number, max: number) => (e: Event) => {
    const n = Math.round(Number((e.currentTarget as HTMLInputElement).value));
    if (Number.isFinite(n)) set(Math.min(max, Math.max(min, n)));
  };
  return (
    <fieldset class="export-gif" disabled={disabled}>
      <legend>{t('GIF for a README')}</legend>
      <label>
        {t('Width (px)')}
        <input type="number" min={80} max={1920} value={width} onChange={num(setWidth, 80, 1920)} />
      </label>
      <label>
        {t('Frame rate')}
        <input type="number" min={2} max={30} value={fps} onChange={num(setFps, 2, 30)} />
      </label>
      <label>
        {t('Largest size (KB)')}
        <input type="number" min={50} max={51200} value={maxKb} onChange={num(setMaxKb, 50, 51200)} />
      </label>
      <label>
        {t('Loop')}
        <select value={String(plays)} onChange={(e) => setPlays(Number((e.currentTarget as HTMLSelectElement).value))}>
          <option value="0">{t('Forever')}</option>
          <option value="1">{t('Play once')}</option>
          <option value="2">{t('Play twice')}</option>
          <option value="3">{t('Play three times')}</option>
        </select>
      </label>
      <button type="button" onClick={() => onExport({ maxWidth: width, maxFps: fps, maxBytes: maxKb * 1024, plays })}>
        {t('Export GIF')}
      </button>
    </fieldset>
  );
}

export function ExportPanel(props: ExportPanelProps) {
  const t = props.t ?? english;
  const x = useExportRun(props, t);
  const { busy, status, bad } = x;
  const none = props.takes.length === 0;
  return (
    <section class="export-panel" aria-labelledby="export-title" aria-busy={busy !== undefined}>
      <h2 id="export-title">{t('Export')}</h2>
      <ol class="export-takes" aria-label={t('Chosen takes, in order')}>
        {props.takes.map((take, i) => (
          <li
            key={take.src}
            class={bad.includes(i) ? 'bad' : undefined}
            aria-invalid={bad.includes(i) ? 'true' : undefined}
          >
            {take.name}
            {bad.includes(i) ? <span class="mark"> {t('(cannot be included)')}</span> : null}
          </li>
        ))}
      </ol>
      {none ? <p>{t('Choose a take for each shot to export the film.')}</p> : null}
      <div class="export-actions">
        <button type="button" disabled={none || busy !== undefined} onClick={() => void stitch(props, x, t)}>
          {t('Join into one MP4')}
        </button>
        {x.offerReencode ? (
          <button type="button" disabled={busy !== undefined} onClick={() => void reencode(props, x, t)}>
            {t('Re-encode here and join')}
          </button>
        ) : null}
      </div>
      <GifFieldset t={t} disabled={none || busy !== undefined} onExport={(o) => void gif(props, x, t, o)} />
      <p class={status?.error ? 'export-status error' : 'export-status'} role="status" aria-live="polite">
        {busy ?? status?.text ?? ''}
      </p>
    </section>
  );
}
