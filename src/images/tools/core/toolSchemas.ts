/**
 * What a model is told about the image tools: their descriptions and the JSON Schemas of their
 * inputs (the chat's tool definitions, the MCP server's list, and package.json's
 * `languageModelTools`, which a unit test keeps equal to these). Plain data: activation loads it.
 */

export const GENERATE_IMAGE_DESCRIPTION =
  "Generates images into the workspace's images folder (billed per image: the user approves each call and its price); returns their paths.";

export const EDIT_IMAGE_DESCRIPTION =
  'Edits a workspace image (an @-mentioned one: "make the background dark"), where a same-size PNG mask is transparent if given; saved as a new file (billed: the user approves the price).';

const COMMON = {
  prompt: { type: 'string', description: 'What to show (an edit: what to change).' },
  model: {
    type: 'string',
    description: "gpt-image-1, a Seedream, Flux or Gemini image model; leave out for the user's.",
  },
  size: { type: 'string', description: '1024x1024, 1536x1024, 1024x1536 or auto.' },
  quality: { type: 'string', description: 'auto, low, medium or high' },
  n: {
    type: 'integer',
    minimum: 1,
    maximum: 10,
    description: "How many (up to the model's limit).",
  },
} as const;

export const GENERATE_IMAGE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    ...COMMON,
    background: { type: 'string', description: 'auto, transparent or opaque' },
    outputFormat: { type: 'string', description: 'png, jpeg or webp' },
  },
  required: ['prompt'],
} as const;

export const EDIT_IMAGE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    image: {
      type: 'string',
      description: 'Workspace path of the PNG, JPEG or WebP to edit.',
    },
    ...COMMON,
    mask: {
      type: 'string',
      description: 'Workspace path of a same-size PNG, transparent where to change.',
    },
  },
  required: ['image', 'prompt'],
} as const;

/** The extensions the images feature saves with (saveImage names files by their bytes). */
export const SAVED_IMAGE = /\.(png|jpg|webp|gif)$/i;
