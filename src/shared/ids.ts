/** A short random id; the webview and host both make them, so no node or DOM API is assumed. */
export function newId(prefix = ''): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
