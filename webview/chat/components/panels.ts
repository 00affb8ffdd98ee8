/** The panels a user opens (lazy.ts): one chunk, loaded when the first of them is about to open. */
export { HistoryPanel } from './HistoryPanel';
export { SettingsPanel } from './SettingsPanel';
export { ToolsPanel } from './ToolsPanel';
export { RestorePanel } from './RestorePanel';
