/**
 * What a model is told about the image tools: their descriptions and the JSON Schemas of their
 * inputs (the chat's tool definitions, the MCP server's list, and package.json's
 * `languageModelTools`, which a unit test keeps equal to these). Plain data: activation loads it.
 */

export const GENERATE_IMAGE_DESCRIPTION =
  "Generates images with the Gateway Studio gateway (billed per image: the user approves each call, told the price) and saves them into the workspace's images folder. Returns the saved files' workspace paths. A request the model's rules refuse is not sent; the result names each broken rule.";

export const EDIT_IMAGE_DESCRIPTION =
  'Edits an image file of the workspace (such as an @-mentioned one: "make the background dark") with the Gateway Studio gateway, optionally only where a PNG mask of the same size is transparent (billed: the user approves each call, told the price). The result is saved as a new file in the images folder; the original is never changed. Returns the new file\'s workspace path.';

const COMMON = {
  prompt: { type: 'string', description: 'What the image shows (for an edit: what to change).' },
  model: {
    type: 'string',
    description:
      "The image model (gpt-image-1, a Seedream, Flux or Gemini image model); leave out for the user's last one.",
  },
  size: { type: 'string', description: "Such as 1024x1024, 1536x1024, 1024x1536 or auto (see the model's sizes)." },
  quality: { type: 'string', description: 'gpt-image: auto, low, medium or high.' },
  n: {
    type: 'integer',
    minimum: 1,
    maximum: 10,
    description: "How many images (at most the model's limit); 1 if left out.",
  },
} as const;

export const GENERATE_IMAGE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    ...COMMON,
    background: { type: 'string', description: 'gpt-image: auto, transparent or opaque.' },
    outputFormat: { type: 'string', description: 'png, jpeg or webp where the model takes it.' },
  },
  required: ['prompt'],
} as const;

export const EDIT_IMAGE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    image: {
      type: 'string',
      description: 'The image to edit: a workspace-relative path of a PNG, JPEG or WebP file (an @-mentioned image).',
    },
    ...COMMON,
    mask: {
      type: 'string',
      description: 'Optional: a workspace path of a PNG of the same size, transparent where the image may change.',
    },
  },
  required: ['image', 'prompt'],
} as const;

/** The extensions the images feature saves with (saveImage names files by their bytes). */
export const SAVED_IMAGE = /\.(png|jpg|webp|gif)$/i;
