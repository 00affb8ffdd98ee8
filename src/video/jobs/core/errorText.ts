// The video feature's words for a failure, in one place: the task record's error (the gallery,
// the task list and the status bar show it), the gallery's notice, and the text the model reads
// when its video tool could not start a task, and what a failed end means. The words themselves come from contracts/errorWords.
import { isGatewayError } from '../../../api/transport/errors';
import { describeError } from '../../../contracts/errorWords';
import type { VideoTaskError, VideoTaskRecord } from './record';

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

/** Spec 3 and 7: what a failed end means. */
export function failureMeaning(r: VideoTaskRecord): string | undefined {
  if (r.state === 'failed') {
    const what =
      r.outcome === 'cancelled'
        ? 'cancelled: the gateway ended the task before it finished (spec 3: a terminal failure)'
        : r.outcome === 'expired'
          ? 'expired: the task ran out of time on the gateway (spec 3: a terminal failure)'
          : 'failed: the gateway reports the task ended in failure (spec 3: status failed, or legacy FAILURE with the reason in fail_reason)';
    return r.failReason ? `${what}; reason: ${r.failReason}` : what;
  }
  if (r.state === 'error' && r.error) return `${r.error.title}: ${r.error.detail}`;
  return undefined;
}
