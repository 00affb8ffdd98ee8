import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Where checkpoints are stored: the storage seam and its folder implementation (see checkpoints.ts). */

/** Where checkpoints are kept: an index text and blobs, per conversation. */
export interface CheckpointStorage {
  /** Conversations that have anything stored. */
  conversations(): Promise<string[]>;
  readIndex(conversationId: string): Promise<string | undefined>;
  writeIndex(conversationId: string, text: string): Promise<void>;
  readBlob(conversationId: string, name: string): Promise<string | undefined>;
  writeBlob(conversationId: string, name: string, text: string): Promise<void>;
  removeBlob(conversationId: string, name: string): Promise<void>;
  /** Removes everything of the conversation. */
  remove(conversationId: string): Promise<void>;
}

/** Reads a file as text, or undefined when it does not exist (the disk reader of plans). */
export async function readDiskText(absolute: string): Promise<string | undefined> {
  try {
    return await fs.readFile(absolute, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * {@link CheckpointStorage} in a folder: `<root>/<conversationId>/index.json` and
 * `<root>/<conversationId>/blobs/<sha256>`. Ids that could leave the folder are refused.
 */
export class FolderCheckpointStorage implements CheckpointStorage {
  constructor(readonly root: string) {}

  private dir(conversationId: string): string {
    if (!SAFE_ID.test(conversationId)) throw new Error(`not a conversation id: ${conversationId.slice(0, 40)}`);
    return path.join(this.root, conversationId);
  }

  private blob(conversationId: string, name: string): string {
    if (!/^[a-f0-9]{64}$/.test(name)) throw new Error('not a blob name');
    return path.join(this.dir(conversationId), 'blobs', name);
  }

  async conversations(): Promise<string[]> {
    try {
      const entries = await fs.readdir(this.root, { withFileTypes: true });
      return entries.filter((e) => e.isDirectory() && SAFE_ID.test(e.name)).map((e) => e.name);
    } catch {
      return [];
    }
  }

  async readIndex(conversationId: string): Promise<string | undefined> {
    return readDiskText(path.join(this.dir(conversationId), 'index.json'));
  }

  async writeIndex(conversationId: string, text: string): Promise<void> {
    const dir = this.dir(conversationId);
    await fs.mkdir(dir, { recursive: true });
    // Written beside and renamed, so a window that dies mid-write keeps the previous index.
    const tmp = path.join(dir, `index.${process.pid}.tmp`);
    await fs.writeFile(tmp, text, 'utf8');
    await fs.rename(tmp, path.join(dir, 'index.json'));
  }

  async readBlob(conversationId: string, name: string): Promise<string | undefined> {
    return readDiskText(this.blob(conversationId, name));
  }

  async writeBlob(conversationId: string, name: string, text: string): Promise<void> {
    const file = this.blob(conversationId, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text, 'utf8');
  }

  async removeBlob(conversationId: string, name: string): Promise<void> {
    await fs.rm(this.blob(conversationId, name), { force: true });
  }

  async remove(conversationId: string): Promise<void> {
    await fs.rm(this.dir(conversationId), { recursive: true, force: true });
  }
}
