/**
 * Every user-facing string of the storyboard editor page, in English, like `GALLERY_STRINGS`: the
 * host localises each one and sends the map in `board/strings` (with the gallery's, whose take
 * cards the page reuses). `npm run l10n` adds this table to the bundle.
 */
export const STORYBOARD_STRINGS = [
  'Storyboard',
  'Generate all',
  'Generate shot',
  'Add shot',
  'Duplicate',
  'Delete',
  'Move up',
  'Move down',
  'Shot {0}',
  'Shots',
  'Prompt of shot {0}',
  'continues from the previous shot',
  'Takes',
  'Take {0}',
  'Chosen take',
  'Use take {0}',
  'This board cannot be shown: {0}',
  'Fix it in the text editor (Reopen Editor With… > Text Editor); nothing is written while it does not parse.',
  'The state file beside the board cannot be read ({0}); it is kept as it is and not updated.',
  'No shots yet.',
  'Generating…',
  'Dismiss',
] as const;
export type StoryboardString = (typeof STORYBOARD_STRINGS)[number];
