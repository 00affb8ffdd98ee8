import { VideoClient } from '../../api/video/video';
import { getGatewayClient } from '../../platform/gateway';
import { DEFAULT_PROFILE_ID } from '../../platform/profiles';
import type { Services } from '../../platform/services';
import type { VideoApi } from '../jobs/core/job';

export interface VideoClients {
  /** The client of a profile (the active one by default); throws when its address or key is missing. */
  client(profile?: string): Promise<VideoClient>;
  /** The job manager's way to the gateway for a task's profile (a task from before profiles: Default). */
  apiFor(profile: string | undefined): VideoApi;
}

/**
 * A task runs on the profile it was started on, never on whichever is active now: its key and
 * address are that profile's until it ends. Built per call (per poll round) so a new key or base
 * URL applies to the next request (round) of a running task.
 */
export function videoClients(s: Services): VideoClients {
  const client = async (profile: string = s.profiles.activeId()) =>
    new VideoClient((await getGatewayClient(s, 'video', profile)).http);
  return {
    client,
    apiFor: (profile) => {
      const p = profile ?? DEFAULT_PROFILE_ID;
      return {
        create: async (req, signal) => {
          // A model of a catalog family goes in its family's shape (Kling, Seedance, Wan …); the
          // spec's models and unknown ones as the spec describes.
          const c = await client(p);
          const { createInFamily } = await import('./familyRoute');
          return (await createInFamily(s.log, c.http, req, signal)) ?? c.create(req, signal);
        },
        readerForRound: () => client(p),
        download: async (src, sinkFor, o) => (await client(p)).download(src, sinkFor, o),
      };
    },
  };
}
