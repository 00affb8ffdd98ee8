/**
 * Longest tool-call id some upstreams accept (OpenAI refuses longer ones on the next turn).
 */
export const MAX_TOOL_CALL_ID_LENGTH = 40;

/**
 * Ids for the calls of one answer that are non-empty, distinct, and used by nothing in `taken`.
 * Relays repeat an id within an answer, send none, or number calls per answer (`call_0` in every
 * answer); cards, approvals and tool messages are keyed by id, and some servers refuse one id on
 * two calls.
 *
 * An id is kept exactly as sent when it is non-empty and neither `taken` nor an earlier call of
 * this answer has it (a resumed conversation must send back the ids the server knows); otherwise
 * it gets the first free numbered suffix (`call_0_2`), or, when that would pass
 * {@link MAX_TOOL_CALL_ID_LENGTH} (or the call had no id), `call_gs_<position>`. A replacement never
 * takes an id another call of this answer was sent with. Deterministic for the same input, so a
 * partial and a final result agree.
 *
 * @param sent the answer's ids in call order (empty or undefined where the server sent none)
 * @param taken ids used elsewhere (earlier messages of the conversation); none by default
 */
export function uniqueToolCallIds(
  sent: readonly (string | undefined)[],
  taken: ReadonlySet<string> = new Set(),
): string[] {
  const reserved = new Set(sent.filter((x): x is string => !!x));
  const used = new Set(taken);
  return sent.map((id, i) => {
    if (id && !used.has(id)) {
      used.add(id);
      return id;
    }
    const free = (c: string) => !used.has(c) && !reserved.has(c) && c.length <= MAX_TOOL_CALL_ID_LENGTH;
    let out: string | undefined;
    // Past the length limit every longer suffix fails too, so the loop stops at the first such one.
    for (let k = 2; id && !out && `${id}_${k}`.length <= MAX_TOOL_CALL_ID_LENGTH; k++)
      if (free(`${id}_${k}`)) out = `${id}_${k}`;
    for (let k = 1; !out; k++) {
      const c = k === 1 ? `call_gs_${i}` : `call_gs_${i}_${k}`;
      if (free(c)) out = c;
    }
    used.add(out);
    return out;
  });
}
