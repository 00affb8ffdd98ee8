/**
 * A video creation for a model of a catalog family (Kling, Seedance, Wan …), in its family's
 * shape; undefined for the spec's models and unknown ones, which go as the spec describes. Loaded
 * on the first creation: the catalog is not needed at activation.
 */
import { familyFor } from '../../api/catalog/catalog';
import { createFamilyVideo } from '../../api/catalog/familyCreate';
import { familyVideoRequest } from '../../api/catalog/familyVideo';
import type { HttpClient } from '../../api/transport/http';
import type { VideoCreateRequest } from '../../api/video/videoRules';
import { mediaCatalog } from '../../platform/mediaCatalog';

export async function createInFamily(
  log: { warn(line: string): void },
  http: HttpClient,
  req: VideoCreateRequest,
  signal?: AbortSignal,
): Promise<{ id: string; body: unknown } | undefined> {
  const f = familyFor(mediaCatalog(log), req.model, 'video');
  return f ? createFamilyVideo(http, f, familyVideoRequest(f, req), { signal }) : undefined;
}
