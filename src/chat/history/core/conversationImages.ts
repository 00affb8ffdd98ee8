import * as l10n from '@vscode/l10n';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Images of conversations (pasted, attached, mentioned) kept as files in the extension's
 * workspace storage folder instead of base64 inside workspace state, which VS Code keeps in one
 * database it loads whole. Files are named by the sha256 of their bytes (one file for an image
 * sent twice). Past the per-workspace limit the oldest files go; a conversation that referred to
 * one then shows a note in its place, the conversation itself is never dropped.
 */

/** An image as a stored record holds it: the file, not the bytes. */
export interface StoredImage {
  name: string;
  mime: string;
  bytes: number;
  /** sha256 hex of the bytes: the file's name in the folder. */
  file: string;
}

export interface ImageFilesOptions {
  /** The folder they live in (created on the first write). */
  folder: string;
  /** Bytes all images of the workspace may take (read on every check: it is a setting). */
  limitBytes: () => number;
  warn?: (msg: string) => void;
}

const FILE_NAME = /^[a-f0-9]{64}$/;
const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)$/i;

export function isStoredImage(v: unknown): v is StoredImage {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<StoredImage>;
  return typeof s.file === 'string' && typeof s.name === 'string' && typeof s.mime === 'string';
}

/** The note that stands in for an image whose file is gone. */
export function imageGoneNote(name: string): string {
  return l10n.t(
    'The image {0} is no longer stored: the oldest conversation images are removed when they pass the limit of setting gatewayStudio.chat.imageStorageMegabytes.',
    name,
  );
}

export class ConversationImageFiles {
  /** File names of recent data URLs: a conversation is saved many times while an answer streams. */
  private readonly recent = new Map<string, string>();

  constructor(private readonly opts: ImageFilesOptions) {}

  get folder(): string {
    return this.opts.folder;
  }

  private fileOf(name: string): string {
    // Names come from stored records: nothing but a sha256 may become a path.
    if (!FILE_NAME.test(name)) throw new Error('not an image file name');
    return path.join(this.opts.folder, name);
  }

  /** Stores a data URL's bytes (unless already stored); returns the file name and whether it was new. */
  async put(dataUrl: string): Promise<{ file: string; added: boolean }> {
    const known = this.recent.get(dataUrl);
    if (known !== undefined && fs.existsSync(this.fileOf(known))) return { file: known, added: false };
    const m = DATA_URL.exec(dataUrl);
    if (!m?.[2]) throw new Error('not a base64 image data URL');
    const bytes = Buffer.from(m[2], 'base64');
    const file = createHash('sha256').update(bytes).digest('hex');
    this.recent.set(dataUrl, file);
    if (this.recent.size > 50) this.recent.delete(this.recent.keys().next().value ?? '');
    const target = this.fileOf(file);
    if (fs.existsSync(target)) return { file, added: false };
    await fs.promises.mkdir(this.opts.folder, { recursive: true });
    // Written beside and renamed: a window that dies mid-write leaves no half image under the name.
    const tmp = `${target}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, bytes);
    await fs.promises.rename(tmp, target);
    return { file, added: true };
  }

  /**
   * The data URL of a stored image, or undefined when its file is gone or does not hold what its
   * name says. Synchronous because loading a conversation is; a conversation has few images.
   */
  read(image: StoredImage): string | undefined {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.fileOf(image.file));
    } catch {
      return undefined;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== image.file) {
      this.opts.warn?.(`chat image ${image.file}: content does not match its name; not used`);
      return undefined;
    }
    const mime = /^image\/[a-z0-9.+-]+$/i.test(image.mime) ? image.mime : 'image/png';
    return `data:${mime};base64,${bytes.toString('base64')}`;
  }

  /**
   * Removes files no record refers to (a deleted conversation's), then the oldest files until the
   * rest fit the limit, sparing `keep` (the conversation being saved: the one in use). Returns the
   * names of the files removed.
   */
  async enforce(referenced: ReadonlySet<string>, keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    let names: string[];
    try {
      names = (await fs.promises.readdir(this.opts.folder)).filter((n) => FILE_NAME.test(n));
    } catch {
      return [];
    }
    const files: { name: string; size: number; at: number }[] = [];
    for (const name of names) {
      try {
        const st = await fs.promises.stat(this.fileOf(name));
        files.push({ name, size: st.size, at: st.mtimeMs });
      } catch {
        // Gone meanwhile.
      }
    }
    const removed: string[] = [];
    const remove = async (name: string) => {
      await fs.promises.rm(this.fileOf(name), { force: true });
      removed.push(name);
    };
    for (const f of files) if (!referenced.has(f.name) && !keep.has(f.name)) await remove(f.name);
    const left = files
      .filter((f) => !removed.includes(f.name))
      .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
    let total = left.reduce((n, f) => n + f.size, 0);
    const limit = this.opts.limitBytes();
    for (const f of left) {
      if (total <= limit) break;
      if (keep.has(f.name)) continue;
      await remove(f.name);
      total -= f.size;
    }
    return removed;
  }
}
