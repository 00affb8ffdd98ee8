/**
 * What the mention chips and the @-picker's listbox share: ids, icons and names. In the first
 * paint's bundle (chips show in sent messages); the picker itself is a chunk loaded on first use.
 */
import type { MentionItem, MentionKind } from '../../../src/shared/protocol';
import type { Translate } from '../models/strings';

export const PICKER_ID = 'mention-picker';
export const optionId = (i: number): string => `mention-opt-${i}`;

export const ICONS: Record<MentionKind, string> = {
  file: 'file',
  folder: 'folder',
  editor: 'file-code',
  selection: 'selection',
  problems: 'warning',
  changes: 'git-compare',
  terminal: 'terminal',
  image: 'file-media',
  mcpResource: 'plug',
};

export function mentionIcon(kind: MentionKind): string {
  return ICONS[kind];
}

/** A chip's accessible name: kind and label. */
export function mentionName(item: Pick<MentionItem, 'kind' | 'label'>, t: Translate): string {
  return `${kindName(item.kind, t)}: ${item.label}`;
}

function kindName(kind: MentionKind, t: Translate): string {
  switch (kind) {
    case 'file':
      return t('File');
    case 'folder':
      return t('Folder');
    case 'editor':
      return t('Open editor');
    case 'selection':
      return t('Selection');
    case 'problems':
      return t('Problems');
    case 'changes':
      return t('Changes');
    case 'terminal':
      return t('Terminal');
    case 'image':
      return t('Image');
    case 'mcpResource':
      return t('MCP resource');
  }
}
