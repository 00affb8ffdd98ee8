// Writes the image tools' model descriptions and input schemas into package.json
// (`contributes.languageModelTools`) from src/images/tools/core/toolSchemas.ts:
// `npx tsx scripts/image-tools-manifest.ts`. test/unit/images/tools/core/toolSchemas.test.ts fails when they drift.
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  EDIT_IMAGE_DESCRIPTION,
  EDIT_IMAGE_JSON_SCHEMA,
  GENERATE_IMAGE_DESCRIPTION,
  GENERATE_IMAGE_JSON_SCHEMA,
} from '../src/images/tools/core/toolSchemas';
const p = join(__dirname, '..', 'package.json');
const pkg = JSON.parse(readFileSync(p, 'utf8'));
for (const t of pkg.contributes.languageModelTools) {
  if (t.name === 'gatewayStudio_generateImage')
    Object.assign(t, { modelDescription: GENERATE_IMAGE_DESCRIPTION, inputSchema: GENERATE_IMAGE_JSON_SCHEMA });
  if (t.name === 'gatewayStudio_editImage')
    Object.assign(t, { modelDescription: EDIT_IMAGE_DESCRIPTION, inputSchema: EDIT_IMAGE_JSON_SCHEMA });
}
writeFileSync(p, JSON.stringify(pkg, null, 2) + '\n');
