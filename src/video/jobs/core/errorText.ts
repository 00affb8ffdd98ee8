// The video feature's words for a failure, in one place: the task record's error (the gallery,
// the task list and the status bar show it), the gallery's notice, and the text the model reads
// when its video tool could not start a task. The words themselves come from contracts/errorWords.
import { isGatewayError } from '../../../api/transport/errors';
import { describeError } from '../../../contracts/errorWords';
import type { VideoTaskError } from './record';

/** The error kept on a task record. */
export function taskError(err: unknown): VideoTaskError {
  const d = describeError(err);
  const kind = isGatewayError(err) ? err.kind : 'unexpected';
  const status = isGatewayError(err) ? err.status : undefined;
  return { kind, title: d.title, detail: d.detail, status };
}

/** One line for a notice: the title, then the detail. */
export function failureText(err: unknown): string {
  const d = describeError(err);
  return `${d.title}. ${d.detail}`;
}

/** What a video tool tells the model when the task could not be started. */
export function notStartedText(err: unknown): string {
  return `The video task was not started: ${failureText(err)}`;
}
