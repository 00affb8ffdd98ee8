/**
 * The JSON schemas of the storyboard tools' inputs, as the models read them. Constants only, with no
 * imports: the chat's tool list needs them at activation, the parsing (agentInput.ts) loads on the
 * first call. The same bounds as board.ts (40 shots, 4 takes), which agentInput parses against.
 */
const SHOT_PROPS = {
  type: 'object',
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', description: 'What the shot shows.' },
    seconds: {
      type: 'integer',
      minimum: 1,
      maximum: 15,
      description: "The clip's length; the board's default when left out.",
    },
    model: { type: 'string', description: "The video model; the board's default when left out." },
    continueFromPrevious: {
      type: 'boolean',
      description: "true: the last frame of the previous shot's clip becomes this shot's reference image (continuity).",
    },
    images: {
      type: 'array',
      items: { type: 'string' },
      description: 'Workspace-relative image paths or public HTTPS URLs.',
    },
    takes: { type: 'integer', minimum: 1, maximum: 4, description: 'Variants to generate (default 1).' },
  },
} as const;

export const CREATE_JSON_SCHEMA = {
  type: 'object',
  required: ['path', 'title', 'shots'],
  properties: {
    path: { type: 'string', description: 'Workspace-relative path of the new board, ending in .storyboard.json.' },
    title: { type: 'string' },
    model: { type: 'string', description: 'Default video model of every shot.' },
    resolution: { type: 'string', enum: ['720p', '480p'] },
    aspectRatio: { type: 'string', description: 'e.g. 16:9' },
    shots: { type: 'array', minItems: 1, maxItems: 40, items: SHOT_PROPS },
  },
} as const;
export const ADD_SHOT_JSON_SCHEMA = {
  type: 'object',
  required: ['path', 'shot'],
  properties: {
    path: { type: 'string', description: 'Workspace-relative path of the board (.storyboard.json).' },
    after: { type: 'string', description: 'Id of the shot to insert after; at the end when left out.' },
    shot: SHOT_PROPS,
  },
} as const;
export const GENERATE_JSON_SCHEMA = {
  type: 'object',
  required: ['path'],
  properties: {
    path: { type: 'string', description: 'Workspace-relative path of the board (.storyboard.json).' },
    shot: { type: 'string', description: "One shot's id; every shot not yet generated when left out." },
  },
} as const;
