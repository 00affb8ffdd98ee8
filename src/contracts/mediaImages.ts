/**
 * What the images feature offers the others (the Media gallery, a storyboard's keyframes) without
 * their importing it: its saved images, its Edit Image command, and one generation saved into its
 * output folder. Filled by src/images/vscode/register.ts; read when used, never at activation.
 */

/** One saved image as the gallery lists it (its sidecar's fields when it has one). */
export interface ImageLibraryItem {
  /** Absolute path of the image file. */
  file: string;
  /** Its name in the output folder (the gallery's key for it). */
  name: string;
  bytes: number;
  /** Modification time, ms. */
  mtime: number;
  prompt?: string;
  model?: string;
  operation?: string;
  size?: string;
}

export interface ImageLibrary {
  /** The images output folder, or undefined when no folder is open; throws when the setting is refused. */
  folder(): Promise<string | undefined>;
  /** The images in the output folder, newest first. */
  list(): Promise<ImageLibraryItem[]>;
  /** Called after an image was saved by any of the feature's commands. */
  onDidSave(listener: () => void): { dispose(): void };
  /** Edit Image… on `file` (asks the prompt, the mask and the model). */
  edit(file: string): Promise<void>;
  /**
   * Generates one image and saves it into the output folder; resolves with its path. Billed: the
   * caller has already asked the user. `model` undefined: the user's last image model.
   */
  generate(req: { prompt: string; model?: string; size?: string }, signal?: AbortSignal): Promise<string>;
}

/** The media libraries features offer each other (a slot each, filled at registration, loaded on first use). */
export interface MediaLibraries {
  images?: () => Promise<ImageLibrary>;
}
