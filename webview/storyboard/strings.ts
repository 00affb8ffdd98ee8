import type { StoryboardString } from '../../src/shared/storyboardStrings';
import { translator } from '../common/strings';

/** The board's string in the display language (the gallery's table holds both pages' strings), `{0}`… filled. */
export const t = translator<StoryboardString>();
