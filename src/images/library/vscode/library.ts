import type { ImageLibraryItem } from '../../../contracts/mediaImages';
import { imageOutputFolder } from '../../base/vscode/imageSettings';
import { listImages } from '../core/listImages';

/** The output folder's images; [] when no folder is open or the setting is refused (the commands say why). */
export async function listLibrary(): Promise<ImageLibraryItem[]> {
  const dir = await imageOutputFolder().catch(() => undefined);
  return dir ? listImages(dir) : [];
}
