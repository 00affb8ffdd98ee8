import type * as vscode from 'vscode';
import { StateTaskStore } from '../core/taskStore';

/**
 * Video task records in the workspace's state (`context.workspaceState`), so unfinished tasks of
 * this workspace resume after a reload or restart. Records never contain the key or image data.
 * Entries this version cannot read are kept as they are (see {@link StateTaskStore}).
 */
export class WorkspaceTaskStore extends StateTaskStore {
  constructor(memento: vscode.Memento) {
    super(memento);
  }
}
