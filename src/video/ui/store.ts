import type * as vscode from 'vscode';
import { isTaskRecord, type VideoTaskRecord, type VideoTaskStore } from '../core/record';

const KEY = 'gatewayStudio.video.tasks';

/**
 * Video task records in the workspace's state (`context.workspaceState`), so unfinished tasks of
 * this workspace resume after a reload or restart. Records never contain the key or image data.
 */
export class WorkspaceTaskStore implements VideoTaskStore {
  constructor(private readonly memento: vscode.Memento) {}

  private read(): Record<string, VideoTaskRecord> {
    const raw = this.memento.get<unknown>(KEY);
    const out: Record<string, VideoTaskRecord> = {};
    if (typeof raw === 'object' && raw !== null) {
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (isTaskRecord(v)) out[k] = v;
    }
    return out;
  }

  load(): VideoTaskRecord[] {
    return Object.values(this.read());
  }

  async save(record: VideoTaskRecord): Promise<void> {
    const all = this.read();
    all[record.key] = record;
    await this.memento.update(KEY, all);
  }

  async remove(key: string): Promise<void> {
    const all = this.read();
    delete all[key];
    await this.memento.update(KEY, all);
  }
}
