/** Field shapes the messages of every capability share. */
import * as z from '../zod';

/** A conversation, message, answer or query id. */
export const id = z.string().check(z.minLength(1), z.maxLength(200));

/** The id a webview gives a request it wants answered (`chat/send`, `chat/cancel`, …). */
export const requestId = z.string().check(z.minLength(1), z.maxLength(100));
