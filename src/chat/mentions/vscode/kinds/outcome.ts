/** What a mention kind's source found: text, or a sentence saying why there is none. */
export type Outcome = { ok: true; text: string; note?: string } | { ok: false; note: string };
