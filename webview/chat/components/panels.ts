/**
 * The panels a user opens (lazy.ts): one chunk, loaded when the first of them is about to open,
 * or with the first spend-cap message (the cap's card and the pre-send line, CapsCard.tsx).
 */
export { HistoryPanel } from './HistoryPanel';
export { SettingsPanel } from './SettingsPanel';
export { ToolsPanel } from './ToolsPanel';
export { RestorePanel } from './RestorePanel';
export { onCaps } from './CapsCard';
