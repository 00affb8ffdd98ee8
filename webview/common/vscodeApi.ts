/** What `acquireVsCodeApi()` gives the gallery and storyboard pages. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
