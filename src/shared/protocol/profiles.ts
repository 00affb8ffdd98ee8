/**
 * The gateway profile switcher in the chat header (issue 22). The host owns which profile is
 * active: the page asks for a switch (`profiles/switch`) and shows the list the host sends back.
 * Names and ids only: a profile's address, headers and key never reach the page.
 */
import * as z from '../zod';

export const profileEntrySchema = z.object({ id: z.string(), name: z.string() });
export type ProfileEntry = z.infer<typeof profileEntrySchema>;

/** Host -> webview. */
export const profilesHostMessages = [
  z.object({
    type: z.literal('profiles/list'),
    profiles: z.array(profileEntrySchema),
    active: z.string(),
  }),
] as const;

/** Webview -> host: the same switch as the command `gatewayStudio.switchProfile` with this id. */
export const profilesWebviewMessages = [
  z.object({ type: z.literal('profiles/switch'), id: z.string().check(z.minLength(1), z.maxLength(100)) }),
] as const;
